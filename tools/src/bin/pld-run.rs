//! `pld-run`: runs a pld module on N simulated ranks (PIPELINE §7).

fn main() {
    let arguments: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    let code = pld_tools::run_on_large_stack(move || pld_tools::run::main(arguments));
    std::process::exit(code);
}
