#![no_main]
//! The hook server's request reader is total: any bytes are read or
//! refused, never a panic, and what it reads encodes back to the same
//! bytes.

use inertbox::hookd::Request;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for frame in [data.to_vec(), [b"inertbox-hookd/1\n".as_slice(), data].concat()] {
        if let Ok(r) = Request::decode(&frame) {
            assert_eq!(r.encode(), frame);
        }
    }
});
