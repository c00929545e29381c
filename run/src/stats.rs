//! The harness's per-rank counters (`--stats`).
//!
//! The harness writes exactly this JSON shape, and `--stats=json` prints it
//! back in the same shape (on one line):
//!
//! ```json
//! {"ranks": [{"rank": 0, "remote_load_bytes": 0, "remote_store_bytes": 0,
//!             "put_bytes": 0, "get_bytes": 0, "notifies": 0, "waits": 0,
//!             "wait_ns": 0}, ...]}
//! ```
//!
//! Payload bytes are those read from or written to another rank's window
//! (signals are not payload). `wait_ns` may be absent; every other key is
//! required, and an unknown key is an error, so that a harness that grows a
//! counter fails a test here instead of losing it silently. The parser
//! reads only this shape: objects, one array, strings without escapes and
//! non-negative integers.

use crate::Error;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

/// One rank's counters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RankStats {
    pub rank: u64,
    pub remote_load_bytes: u64,
    pub remote_store_bytes: u64,
    pub put_bytes: u64,
    pub get_bytes: u64,
    pub notifies: u64,
    pub waits: u64,
    /// Time spent waiting, if the harness measured it.
    pub wait_ns: Option<u64>,
}

/// The counter keys besides `rank` and `wait_ns`, in output order.
const COUNTERS: [&str; 6] = [
    "remote_load_bytes",
    "remote_store_bytes",
    "put_bytes",
    "get_bytes",
    "notifies",
    "waits",
];

impl RankStats {
    fn counters(&self) -> [u64; 6] {
        [
            self.remote_load_bytes,
            self.remote_store_bytes,
            self.put_bytes,
            self.get_bytes,
            self.notifies,
            self.waits,
        ]
    }

    fn counter_mut(&mut self, key: &str) -> Option<&mut u64> {
        Some(match key {
            "remote_load_bytes" => &mut self.remote_load_bytes,
            "remote_store_bytes" => &mut self.remote_store_bytes,
            "put_bytes" => &mut self.put_bytes,
            "get_bytes" => &mut self.get_bytes,
            "notifies" => &mut self.notifies,
            "waits" => &mut self.waits,
            _ => return None,
        })
    }
}

/// Every rank's counters, in the harness's order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub ranks: Vec<RankStats>,
}

impl Stats {
    /// Parses the harness's stats JSON.
    pub fn parse(text: &str) -> Result<Stats, Error> {
        let mut p = Json { text, at: 0 };
        let stats = p
            .document()
            .map_err(|message| Error::new(format!("stats: at byte {}: {message}", p.at)))?;
        Ok(stats)
    }

    /// Reads and parses the harness's stats file.
    pub fn read(path: &Path) -> Result<Stats, Error> {
        let text = fs::read_to_string(path)
            .map_err(|e| Error::new(format!("cannot read {}: {e}", path.display())))?;
        Stats::parse(&text).map_err(|e| Error::new(format!("{}: {e}", path.display())))
    }

    /// Sums over ranks (`rank` is the number of ranks; `wait_ns` is present
    /// if any rank has it).
    pub fn total(&self) -> RankStats {
        let mut total = RankStats {
            rank: self.ranks.len() as u64,
            ..RankStats::default()
        };
        for r in &self.ranks {
            for (key, value) in COUNTERS.iter().zip(r.counters()) {
                let slot = total.counter_mut(key).expect("known counter");
                *slot = slot.saturating_add(value);
            }
            if let Some(ns) = r.wait_ns {
                total.wait_ns = Some(total.wait_ns.unwrap_or(0).saturating_add(ns));
            }
        }
        total
    }

    /// `--stats=json`: the harness's shape, on one line, with `wait_ns`
    /// only where the harness gave it.
    pub fn to_json(&self) -> String {
        let ranks: Vec<String> = self
            .ranks
            .iter()
            .map(|r| {
                let mut out = format!("{{\"rank\": {}", r.rank);
                for (key, value) in COUNTERS.iter().zip(r.counters()) {
                    let _ = write!(out, ", \"{key}\": {value}");
                }
                if let Some(ns) = r.wait_ns {
                    let _ = write!(out, ", \"wait_ns\": {ns}");
                }
                out.push('}');
                out
            })
            .collect();
        format!("{{\"ranks\": [{}]}}", ranks.join(", "))
    }

    /// `--stats`: an aligned table, one row per rank and a total row. The
    /// wait column is in milliseconds and appears if any rank measured it.
    ///
    /// ```text
    /// rank   remote load bytes  remote store bytes  put bytes  get bytes  notifies  waits  wait ms
    /// 0                   4096                   0          0          0         1      1    0.012
    /// ...
    /// total               8192                   0          0          0         2      2    0.020
    /// ```
    pub fn to_table(&self) -> String {
        let with_wait = self.ranks.iter().any(|r| r.wait_ns.is_some());
        let mut header = vec!["rank".to_owned()];
        header.extend(COUNTERS.iter().map(|k| k.replace('_', " ")));
        if with_wait {
            header.push("wait ms".to_owned());
        }
        let row = |label: String, r: &RankStats| {
            let mut cells = vec![label];
            cells.extend(r.counters().iter().map(u64::to_string));
            if with_wait {
                cells.push(match r.wait_ns {
                    Some(ns) => format!("{:.3}", ns as f64 / 1e6),
                    None => "-".to_owned(),
                });
            }
            cells
        };
        let mut rows = vec![header];
        rows.extend(self.ranks.iter().map(|r| row(r.rank.to_string(), r)));
        rows.push(row("total".to_owned(), &self.total()));
        let widths: Vec<usize> = (0..rows[0].len())
            .map(|c| rows.iter().map(|r| r[c].len()).max().unwrap_or(0))
            .collect();
        let mut out = String::new();
        for r in &rows {
            let mut line = String::new();
            for (c, (cell, width)) in r.iter().zip(&widths).enumerate() {
                // Labels left, numbers right.
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
}

/// A cursor over the stats document.
struct Json<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Json<'a> {
    fn skip_space(&mut self) {
        let rest = &self.text[self.at..];
        self.at += rest.len() - rest.trim_start_matches([' ', '\t', '\n', '\r']).len();
    }

    fn peek(&mut self) -> Option<char> {
        self.skip_space();
        self.text[self.at..].chars().next()
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: char) -> Result<(), String> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(format!("expected `{c}`, found {}", self.found()))
        }
    }

    fn found(&mut self) -> String {
        match self.peek() {
            Some(c) => format!("`{c}`"),
            None => "end of input".to_owned(),
        }
    }

    fn string(&mut self) -> Result<&'a str, String> {
        self.expect('"')?;
        let text: &'a str = self.text;
        let rest = &text[self.at..];
        let end = rest.find('"').ok_or("unterminated string")?;
        if rest[..end].contains('\\') {
            return Err("escapes in keys are not supported".to_owned());
        }
        self.at += end + 1;
        Ok(&rest[..end])
    }

    fn integer(&mut self) -> Result<u64, String> {
        self.skip_space();
        let rest = &self.text[self.at..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let followed_by_number_syntax = rest[digits..].starts_with(['.', 'e', 'E']);
        if digits == 0 || followed_by_number_syntax {
            return Err(format!(
                "expected a non-negative integer, found {}",
                self.found()
            ));
        }
        let value = rest[..digits]
            .parse()
            .map_err(|_| format!("integer {} is too large", &rest[..digits]))?;
        self.at += digits;
        Ok(value)
    }

    /// `{"ranks": [...]}` and nothing after it.
    fn document(&mut self) -> Result<Stats, String> {
        self.expect('{')?;
        self.skip_space();
        let start = self.at;
        let key = self.string()?;
        if key != "ranks" {
            self.at = start;
            return Err(format!("expected the key \"ranks\", found \"{key}\""));
        }
        self.expect(':')?;
        self.expect('[')?;
        let mut ranks = Vec::new();
        if !self.eat(']') {
            loop {
                ranks.push(self.rank()?);
                if self.eat(']') {
                    break;
                }
                self.expect(',')?;
            }
        }
        self.expect('}')?;
        if self.peek().is_some() {
            return Err(format!("unexpected {} after the document", self.found()));
        }
        Ok(Stats { ranks })
    }

    /// One rank's object.
    fn rank(&mut self) -> Result<RankStats, String> {
        self.expect('{')?;
        let mut stats = RankStats::default();
        let mut seen: Vec<String> = Vec::new();
        if !self.eat('}') {
            loop {
                self.skip_space();
                let start = self.at;
                let key = self.string()?.to_owned();
                if seen.contains(&key) {
                    self.at = start;
                    return Err(format!("key \"{key}\" appears twice"));
                }
                self.expect(':')?;
                let value = self.integer()?;
                match key.as_str() {
                    "rank" => stats.rank = value,
                    "wait_ns" => stats.wait_ns = Some(value),
                    other => match stats.counter_mut(other) {
                        Some(slot) => *slot = value,
                        None => {
                            self.at = start;
                            return Err(format!("unknown key \"{other}\""));
                        }
                    },
                }
                seen.push(key);
                if self.eat('}') {
                    break;
                }
                self.expect(',')?;
            }
        }
        if let Some(missing) = ["rank"]
            .iter()
            .chain(&COUNTERS)
            .find(|k| !seen.iter().any(|s| s == *k))
        {
            return Err(format!("rank object without \"{missing}\""));
        }
        Ok(stats)
    }
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
            "{\"ranks\": [{\"rank\": 0, \"remote_load_bytes\": 4096, \"remote_store_bytes\": 0, \
             \"put_bytes\": 128, \"get_bytes\": 0, \"notifies\": 3, \"waits\": 2, \"wait_ns\": 1500000}, \
             {\"rank\": 1, \"remote_load_bytes\": 4096, \"remote_store_bytes\": 64, \"put_bytes\": 0, \
             \"get_bytes\": 256, \"notifies\": 1, \"waits\": 12, \"wait_ns\": 250}]}"
        );
        assert_eq!(Stats::parse(&json).unwrap(), stats);
        let without = r#"{"ranks": [{"rank": 0, "remote_load_bytes": 1, "remote_store_bytes": 2, "put_bytes": 3, "get_bytes": 4, "notifies": 5, "waits": 6}]}"#;
        assert_eq!(Stats::parse(without).unwrap().to_json(), without);
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
        assert_eq!(
            err(""),
            "stats: at byte 0: expected `{`, found end of input"
        );
        assert_eq!(
            err(r#"{"rank": []}"#),
            "stats: at byte 1: expected the key \"ranks\", found \"rank\""
        );
        assert_eq!(
            err(r#"{"ranks": [{"rank": 0, "bogus": 0}]}"#),
            "stats: at byte 23: unknown key \"bogus\""
        );
        assert!(
            err(r#"{"ranks": [{"rank": 0}]}"#)
                .contains("rank object without \"remote_load_bytes\"")
        );
        assert!(
            err(r#"{"ranks": [{"rank": -1}]}"#)
                .contains("expected a non-negative integer, found `-`")
        );
        assert!(err(r#"{"ranks": [{"rank": 1.5}]}"#).contains("expected a non-negative integer"));
        assert!(
            err(r#"{"ranks": [{"rank": 0, "rank": 0}]}"#).contains("key \"rank\" appears twice")
        );
        assert!(err(r#"{"ranks": [{"rank": 0, "bogus": 0}]}"#).contains("unknown key \"bogus\""));
        assert!(err(r#"{"ranks": [{"rank": 99999999999999999999}]}"#).contains("too large"));
        assert!(err(r#"{"ranks": []} x"#).contains("unexpected `x` after the document"));
        assert!(err(r#"{"ranks": [{"rank": 0,}]}"#).contains("expected `\"`"));
        assert!(err(r#"{"ranks": [}"#).contains("expected `{`"));
    }
}
