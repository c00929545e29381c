//! `pld-run`: runs a pld module on N simulated ranks (pipeline §7).

fn main() {
    // A crash (a fatal signal in pld-run or in the MLIR it runs) prints a
    // stack trace and where to report it; so does a panic.
    pld_tools::install_crash_handler();
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        default_hook(info);
        eprintln!("pld-run: internal error. {}", pld_run_core::cli::BUG_REPORT);
    }));
    let arguments: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    let code = pld_tools::run_on_large_stack(move || pld_run::cli_main(arguments));
    std::process::exit(code);
}
