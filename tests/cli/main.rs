//! CLI contracts: every exit code, which stream gets what, byte-exact output.

mod attacks;
mod caps;
mod check;
mod common;
mod ecosystem;
mod fence;
mod gate;
mod hidden_html;
mod hook;
mod linear;
mod mcp;
mod props;
mod proxy;
mod scan;
mod screen;
mod session;
mod unwrap;
mod wrap;
