#![no_main]
//! A model's reply is untrusted too: any reply against any content gives a
//! verdict or an error, never a panic, and every finding lies inside the
//! content it was found in.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // Content, a 0xFF byte, the reply (no 0xFF: content alone, empty reply).
    let (content, reply) = match data.iter().position(|&b| b == 0xFF) {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (data, &[][..]),
    };
    let doc = inertbox::Document::load(content.to_vec(), inertbox::document::Kind::Auto, "fuzz");
    let reply = String::from_utf8_lossy(reply);
    if let Ok((report, _)) = inertbox::screen::verdict(&doc, &reply, Some("NONCE"), &Default::default()) {
        for f in &report.findings {
            assert!(f.start <= f.end && f.end <= doc.raw.len());
        }
    }
});
