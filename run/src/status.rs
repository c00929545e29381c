//! pld-run's exit statuses (pipeline §7).
//!
//! Scripts and lit tests tell outcomes apart by these numbers alone, so each
//! has exactly one meaning. The simulator harness exits with the same
//! numbers for the outcomes it detects (deadlock, trap), which is why
//! [`ExitStatus::from_code`] exists.

use std::fmt;
use std::process::ExitCode;

/// How a `pld-run` invocation ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum ExitStatus {
    /// 0: the program ran and every `--expect` held.
    Ok = 0,
    /// 1: the program ran, and at least one `--expect` did not hold; the
    /// first mismatches are listed (rank, argument, index, got, expected).
    ExpectationFailed = 1,
    /// 2: bad usage, invalid IR, a failed build, or an input pld-run could
    /// not use (an unreadable `.npy` file, an expression error).
    BadInput = 2,
    /// 3: the simulated ranks deadlocked or the wall-clock timeout expired;
    /// the report's first line starts with `pld-run: deadlock`.
    DeadlockOrTimeout = 3,
    /// 4: a trap: an access outside a peer's window, or a runtime limit
    /// (deferred tasks, conditions per task) exceeded.
    Trap = 4,
    /// 5: a sanitizer reported a problem: `--sanitize race` a data race,
    /// ThreadSanitizer or AddressSanitizer a bug.
    Sanitizer = 5,
}

impl ExitStatus {
    /// Every status, in numeric order.
    pub const ALL: [ExitStatus; 6] = [
        ExitStatus::Ok,
        ExitStatus::ExpectationFailed,
        ExitStatus::BadInput,
        ExitStatus::DeadlockOrTimeout,
        ExitStatus::Trap,
        ExitStatus::Sanitizer,
    ];

    /// The process exit code.
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The status with this exit code, if it is one of pld-run's.
    pub fn from_code(code: i32) -> Option<ExitStatus> {
        ExitStatus::ALL
            .into_iter()
            .find(|status| i32::from(status.code()) == code)
    }

    /// A few words for `--help` and logs.
    pub fn meaning(self) -> &'static str {
        match self {
            ExitStatus::Ok => "ran, and every expectation held",
            ExitStatus::ExpectationFailed => "an expectation failed",
            ExitStatus::BadInput => "bad usage, invalid IR or a failed build",
            ExitStatus::DeadlockOrTimeout => "deadlock or timeout",
            ExitStatus::Trap => "a trap (out-of-window access, runtime limit)",
            ExitStatus::Sanitizer => "a sanitizer report",
        }
    }
}

impl fmt::Display for ExitStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.code(), self.meaning())
    }
}

impl From<ExitStatus> for ExitCode {
    fn from(status: ExitStatus) -> ExitCode {
        ExitCode::from(status.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_the_documented_numbers() {
        let codes: Vec<u8> = ExitStatus::ALL.iter().map(|s| s.code()).collect();
        assert_eq!(codes, [0, 1, 2, 3, 4, 5]);
        assert_eq!(ExitStatus::Trap.code(), 4);
    }

    #[test]
    fn from_code_inverts_code() {
        for status in ExitStatus::ALL {
            assert_eq!(ExitStatus::from_code(status.code().into()), Some(status));
        }
        assert_eq!(ExitStatus::from_code(6), None);
        assert_eq!(ExitStatus::from_code(-1), None);
    }

    #[test]
    fn display_names_code_and_meaning() {
        assert_eq!(
            ExitStatus::DeadlockOrTimeout.to_string(),
            "3 (deadlock or timeout)"
        );
    }
}
