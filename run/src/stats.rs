//! The harness's per-rank counters (`--stats`) and, in a timed run
//! (`--timing`), its modelled time.
//!
//! The harness writes exactly this JSON shape, and `--stats=json` prints it
//! back in the same shape (on one line):
//!
//! ```json
//! {"ranks": [{"rank": 0, "remote_load_bytes": 0, "remote_store_bytes": 0,
//!             "put_bytes": 0, "get_bytes": 0, "notifies": 0, "waits": 0,
//!             "wait_ns": 0, "modelled_ns": 0.0}, ...],
//!  "model": {"alpha_ns": 750.0, "link_bytes_per_ns": 25.7, ...},
//!  "modelled_ns": 0.0,
//!  "links": [{"from": 0, "to": 1, "bytes": 4096}, ...],
//!  "critical_path": [{"thread": "rank 0 block 0 lane 0", "site": "...",
//!                     "from_ns": 0.0, "until_ns": 0.0,
//!                     "released_by": "rank 1 ...", "release_site": "..."}]}
//! ```
//!
//! Payload bytes are those read from or written to another rank's window
//! (signals are not payload), filed under the op the user wrote: a
//! `pld.tensor.put`'s under `put_bytes` and a `pld.tensor.get`'s under
//! `get_bytes` (the simulator reads the op from the site the lowering
//! passes), other remote reads and writes under `remote_load_bytes` and
//! `remote_store_bytes`. `wait_ns` (wall-clock) may be absent; the
//! per-rank `modelled_ns` and the members after `ranks` are present only in
//! a timed run. Every other key is required, and an unknown key is an
//! error, so that a harness that grows a counter fails a test here instead
//! of losing it silently.

use crate::Error;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

/// One rank's counters.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RankStats {
    pub rank: u64,
    pub remote_load_bytes: u64,
    pub remote_store_bytes: u64,
    pub put_bytes: u64,
    pub get_bytes: u64,
    pub notifies: u64,
    pub waits: u64,
    /// Time spent waiting, if the harness measured it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wait_ns: Option<u64>,
    /// When the rank's last thread ended, in modelled time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modelled_ns: Option<f64>,
}

/// The bytes one link carried in a timed run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Link {
    pub from: u64,
    pub to: u64,
    pub bytes: u64,
}

/// One wait on the critical path: the thread held up, the op, when it began
/// and stopped waiting, and the notify that released it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stall {
    pub thread: String,
    pub site: String,
    pub from_ns: f64,
    pub until_ns: f64,
    pub released_by: String,
    pub release_site: String,
}

/// Every rank's counters, in the harness's order, and a timed run's clock.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stats {
    pub ranks: Vec<RankStats>,
    /// The machine model's parameters, by name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<BTreeMap<String, f64>>,
    /// When the last thread of any rank ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modelled_ns: Option<f64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<Link>,
    /// From the last wait of the thread that ended last back to the start.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub critical_path: Vec<Stall>,
}

/// The counters' names (as the table heads them) and values.
fn counters(r: &RankStats) -> [(&'static str, u64); 6] {
    [
        ("remote load bytes", r.remote_load_bytes),
        ("remote store bytes", r.remote_store_bytes),
        ("put bytes", r.put_bytes),
        ("get bytes", r.get_bytes),
        ("notifies", r.notifies),
        ("waits", r.waits),
    ]
}

impl Stats {
    /// Parses the harness's stats JSON.
    pub fn parse(text: &str) -> Result<Stats, Error> {
        serde_json::from_str(text).map_err(|e| Error::new(format!("stats: {e}")))
    }

    /// Reads and parses the harness's stats file.
    pub fn read(path: &Path) -> Result<Stats, Error> {
        let text = fs::read_to_string(path)
            .map_err(|e| Error::new(format!("cannot read {}: {e}", path.display())))?;
        Stats::parse(&text).map_err(|e| Error::new(format!("{}: {e}", path.display())))
    }

    /// Sums over ranks (`rank` is the number of ranks; `wait_ns` is present
    /// if any rank has it; `modelled_ns` is the latest).
    pub fn total(&self) -> RankStats {
        let sum = |f: fn(&RankStats) -> u64| {
            self.ranks
                .iter()
                .map(f)
                .fold(0u64, |a, b| a.saturating_add(b))
        };
        RankStats {
            rank: self.ranks.len() as u64,
            remote_load_bytes: sum(|r| r.remote_load_bytes),
            remote_store_bytes: sum(|r| r.remote_store_bytes),
            put_bytes: sum(|r| r.put_bytes),
            get_bytes: sum(|r| r.get_bytes),
            notifies: sum(|r| r.notifies),
            waits: sum(|r| r.waits),
            wait_ns: self
                .ranks
                .iter()
                .filter_map(|r| r.wait_ns)
                .reduce(u64::saturating_add),
            modelled_ns: self
                .ranks
                .iter()
                .filter_map(|r| r.modelled_ns)
                .reduce(f64::max),
        }
    }

    /// `--stats=json`: the harness's shape, on one line.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("stats serialize")
    }

    /// `--stats`: an aligned table, one row per rank and a total row. The
    /// wait column is in milliseconds and appears if any rank measured it;
    /// the modelled column (microseconds) in a timed run.
    ///
    /// ```text
    /// rank   remote load bytes  remote store bytes  put bytes  get bytes  notifies  waits  wait ms
    /// 0                   4096                   0          0          0         1      1    0.012
    /// ...
    /// total               8192                   0          0          0         2      2    0.020
    /// ```
    pub fn to_table(&self) -> String {
        let with_wait = self.ranks.iter().any(|r| r.wait_ns.is_some());
        let with_model = self.ranks.iter().any(|r| r.modelled_ns.is_some());
        let mut header = vec!["rank".to_owned()];
        header.extend(counters(&RankStats::default()).map(|(name, _)| name.to_owned()));
        if with_wait {
            header.push("wait ms".to_owned());
        }
        if with_model {
            header.push("modelled us".to_owned());
        }
        let row = |label: String, r: &RankStats| {
            let mut cells = vec![label];
            cells.extend(counters(r).map(|(_, value)| value.to_string()));
            if with_wait {
                cells.push(match r.wait_ns {
                    Some(ns) => format!("{:.3}", ns as f64 / 1e6),
                    None => "-".to_owned(),
                });
            }
            if with_model {
                cells.push(match r.modelled_ns {
                    Some(ns) => format!("{:.3}", ns / 1e3),
                    None => "-".to_owned(),
                });
            }
            cells
        };
        let mut rows = vec![header];
        rows.extend(self.ranks.iter().map(|r| row(r.rank.to_string(), r)));
        rows.push(row("total".to_owned(), &self.total()));
        aligned(&rows)
    }

    /// `--timing`'s report: the modelled time per rank and of the run, the
    /// bytes per link, and the waits on the critical path; empty when the
    /// run was not timed.
    pub fn timing_report(&self) -> String {
        let Some(total) = self.modelled_ns else {
            return String::new();
        };
        let mut out = format!("modelled time: {:.3} us\n", total / 1e3);
        let ranks: Vec<String> = self
            .ranks
            .iter()
            .map(|r| format!("{:.3}", r.modelled_ns.unwrap_or(0.0) / 1e3))
            .collect();
        let _ = writeln!(out, "  per rank (us): {}", ranks.join(", "));
        if let Some(model) = &self.model {
            let items: Vec<String> = model.iter().map(|(k, v)| format!("{k}={v}")).collect();
            let _ = writeln!(out, "  model: {}", items.join(" "));
        }
        if !self.links.is_empty() {
            out.push_str("bytes per link:\n");
            let mut rows = vec![vec!["from".to_owned(), "to".to_owned(), "bytes".to_owned()]];
            rows.extend(
                self.links
                    .iter()
                    .map(|l| vec![l.from.to_string(), l.to.to_string(), l.bytes.to_string()]),
            );
            for line in aligned(&rows).lines() {
                let _ = writeln!(out, "  {line}");
            }
        }
        if !self.critical_path.is_empty() {
            out.push_str("critical path (latest first): the waits that held it up\n");
            for stall in &self.critical_path {
                let _ = writeln!(
                    out,
                    "  {}: {} waited {:.3} us (until {:.3} us), released by {} ({})",
                    stall.thread,
                    stall.site,
                    (stall.until_ns - stall.from_ns) / 1e3,
                    stall.until_ns / 1e3,
                    stall.released_by,
                    stall.release_site
                );
            }
        }
        out
    }
}

/// Rows as an aligned table: the first column left, the others right.
fn aligned(rows: &[Vec<String>]) -> String {
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|c| rows.iter().map(|r| r[c].len()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for r in rows {
        let mut line = String::new();
        for (c, (cell, width)) in r.iter().zip(&widths).enumerate() {
            let _ = if c == 0 {
                write!(line, "{cell:<width$}")
            } else {
                write!(line, "  {cell:>width$}")
            };
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO_RANKS: &str = r#"{"ranks": [
        {"rank": 0, "remote_load_bytes": 4096, "remote_store_bytes": 0, "put_bytes": 128,
         "get_bytes": 0, "notifies": 3, "waits": 2, "wait_ns": 1500000},
        {"rank": 1, "remote_load_bytes": 4096, "remote_store_bytes": 64, "put_bytes": 0,
         "get_bytes": 256, "notifies": 1, "waits": 12, "wait_ns": 250}
    ]}"#;

    #[test]
    fn parses_the_harness_shape() {
        let stats = Stats::parse(TWO_RANKS).unwrap();
        assert_eq!(stats.ranks.len(), 2);
        assert_eq!(
            stats.ranks[1],
            RankStats {
                rank: 1,
                remote_load_bytes: 4096,
                remote_store_bytes: 64,
                put_bytes: 0,
                get_bytes: 256,
                notifies: 1,
                waits: 12,
                wait_ns: Some(250),
                modelled_ns: None,
            }
        );
        let total = stats.total();
        assert_eq!(
            (total.remote_load_bytes, total.waits, total.wait_ns),
            (8192, 14, Some(1_500_250))
        );
        assert_eq!(Stats::parse(r#"{"ranks": []}"#).unwrap().ranks, []);
    }

    #[test]
    fn json_round_trips_in_the_same_shape() {
        let stats = Stats::parse(TWO_RANKS).unwrap();
        let json = stats.to_json();
        assert_eq!(
            json,
            "{\"ranks\":[{\"rank\":0,\"remote_load_bytes\":4096,\"remote_store_bytes\":0,\
             \"put_bytes\":128,\"get_bytes\":0,\"notifies\":3,\"waits\":2,\"wait_ns\":1500000},\
             {\"rank\":1,\"remote_load_bytes\":4096,\"remote_store_bytes\":64,\"put_bytes\":0,\
             \"get_bytes\":256,\"notifies\":1,\"waits\":12,\"wait_ns\":250}]}"
        );
        assert_eq!(Stats::parse(&json).unwrap(), stats);
        let without = r#"{"ranks":[{"rank":0,"remote_load_bytes":1,"remote_store_bytes":2,"put_bytes":3,"get_bytes":4,"notifies":5,"waits":6}]}"#;
        assert_eq!(Stats::parse(without).unwrap().to_json(), without);
    }

    #[test]
    fn a_timed_run_keeps_its_clock() {
        let timed = r#"{"ranks": [
            {"rank": 0, "remote_load_bytes": 0, "remote_store_bytes": 0, "put_bytes": 0,
             "get_bytes": 0, "notifies": 1, "waits": 1, "modelled_ns": 1500.5}],
          "model": {"alpha_ns": 750, "link_bytes_per_ns": 25.7},
          "modelled_ns": 1500.5,
          "links": [{"from": 1, "to": 0, "bytes": 64}],
          "critical_path": [{"thread": "rank 0 block 0 lane 0", "site": "pld.system.wait at k.mlir:3:5",
             "from_ns": 20, "until_ns": 790, "released_by": "rank 1 block 0 lane 0",
             "release_site": "pld.system.notify at k.mlir:2:5"}]}"#;
        let stats = Stats::parse(timed).unwrap();
        assert_eq!(stats.total().modelled_ns, Some(1500.5));
        assert_eq!(Stats::parse(&stats.to_json()).unwrap(), stats);
        let report = stats.timing_report();
        assert!(report.starts_with("modelled time: 1.500 us\n"), "{report}");
        assert!(report.contains("alpha_ns=750"), "{report}");
        assert!(
            report.contains("rank 0 block 0 lane 0: pld.system.wait at k.mlir:3:5 waited 0.770 us"),
            "{report}"
        );
        assert!(stats.to_table().contains("modelled us"));
        assert_eq!(Stats::parse(TWO_RANKS).unwrap().timing_report(), "");
    }

    #[test]
    fn table_is_aligned_with_totals() {
        let table = Stats::parse(TWO_RANKS).unwrap().to_table();
        assert_eq!(
            table,
            "\
rank   remote load bytes  remote store bytes  put bytes  get bytes  notifies  waits  wait ms
0                   4096                   0        128          0         3      2    1.500
1                   4096                  64          0        256         1     12    0.000
total               8192                  64        128        256         4     14    1.500
"
        );
        let no_wait = Stats {
            ranks: vec![RankStats {
                rank: 0,
                put_bytes: 7,
                ..RankStats::default()
            }],
            ..Stats::default()
        };
        let table = no_wait.to_table();
        assert!(!table.contains("wait ms"), "{table}");
        assert!(
            table
                .lines()
                .all(|l| l.len() == table.lines().next().unwrap().len())
        );
    }

    #[test]
    fn rejects_other_shapes() {
        let err = |text: &str| Stats::parse(text).unwrap_err().to_string();
        assert!(err("").contains("EOF"));
        assert!(err(r#"{"rank": []}"#).contains("unknown field `rank`"));
        assert!(err(r#"{"ranks": [{"rank": 0, "bogus": 0}]}"#).contains("unknown field `bogus`"));
        assert!(err(r#"{"ranks": [{"rank": 0}]}"#).contains("missing field `remote_load_bytes`"));
        assert!(err(r#"{"ranks": [{"rank": -1}]}"#).contains("invalid value"));
        assert!(err(r#"{"ranks": [{"rank": 1.5}]}"#).contains("invalid type"));
        assert!(err(r#"{"ranks": [{"rank": 0, "rank": 0}]}"#).contains("duplicate field `rank`"));
        assert!(err(r#"{"ranks": []} x"#).contains("trailing characters"));
    }
}
