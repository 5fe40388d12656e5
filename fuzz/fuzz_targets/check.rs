#![no_main]
//! The check parser is total: any bytes give a report, never a panic, and
//! reading in small pieces gives the same report as reading at once.

use libfuzzer_sys::fuzz_target;
use std::io::Read;

struct Trickle<'a>(&'a [u8], usize);

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.1.min(self.0.len()).min(buf.len());
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

fuzz_target!(|data: &[u8]| {
    let whole = inertbox::check_bytes(data);
    let step = 1 + data.first().map_or(0, |b| (*b % 7) as usize);
    let pieces = inertbox::check_reader(Trickle(data, step)).expect("memory reads succeed");
    assert_eq!(whole, pieces);
});
