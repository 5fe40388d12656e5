//! Writes one hostile input of the worst-case suite (src/testing/hostile.rs)
//! to stdout, or lists the cases.
//!
//! Usage: hostile --list            one line a case: NAME FEED,FEED… ABOUT
//!        hostile NAME SIZE         about SIZE bytes of the case
use std::io::Write as _;

use inertbox::testing::hostile;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut out = std::io::stdout().lock();
    match args.as_slice() {
        [list] if list == "--list" => {
            for c in hostile::cases() {
                let feeds: Vec<&str> = c.feeds.iter().map(|f| f.as_str()).collect();
                writeln!(out, "{}\t{}\t{}", c.name, feeds.join(","), c.about).expect("stdout");
            }
        }
        [name, size] => {
            let Some(case) = hostile::case(name) else {
                eprintln!("hostile: no case named {name} (see --list)");
                std::process::exit(2);
            };
            let Ok(size) = size.parse::<usize>() else {
                eprintln!("hostile: SIZE must be a number of bytes");
                std::process::exit(2);
            };
            out.write_all(&case.make(size)).expect("stdout");
        }
        _ => {
            eprintln!("usage: hostile --list | hostile NAME SIZE");
            std::process::exit(2);
        }
    }
}
