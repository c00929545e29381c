//! `--timeline FILE.svg`: the run's trace events (`--trace`, Chrome's
//! trace-event JSON) drawn as a static picture for a README or a bug
//! report: one row per track (a rank's threads and their engines), waits
//! shaded, transfers, tile math and notifies in their own colours, and an
//! arrow from every notify to the wait it released.

use crate::Error;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The members of a trace event this picture reads.
#[derive(Deserialize)]
struct Event {
    ph: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    cat: String,
    #[serde(default)]
    pid: i64,
    #[serde(default)]
    tid: i64,
    #[serde(default)]
    ts: f64,
    #[serde(default)]
    dur: f64,
    #[serde(default)]
    id: Option<u64>,
    #[serde(default)]
    args: serde_json::Map<String, serde_json::Value>,
}

#[derive(Deserialize)]
struct Trace {
    #[serde(rename = "traceEvents")]
    events: Vec<Event>,
}

const ROW: f64 = 22.0;
const LABEL: f64 = 260.0;
const PLOT: f64 = 900.0;

fn colour(category: &str, name: &str) -> &'static str {
    match (category, name) {
        ("signal", "wait") => "#d9d9d9",
        ("signal", _) => "#f4a261",
        ("transfer", _) => "#457b9d",
        ("compute", _) => "#2a9d8f",
        _ => "#999999",
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The SVG of the trace `json`.
pub fn svg(json: &str) -> Result<String, Error> {
    let trace: Trace = serde_json::from_str(json).map_err(|e| Error::new(format!("trace: {e}")))?;
    let mut names: BTreeMap<(i64, i64), String> = BTreeMap::new();
    let mut slices = Vec::new();
    let mut flow_starts: BTreeMap<u64, (i64, i64, f64)> = BTreeMap::new();
    let mut flows = Vec::new();
    for event in &trace.events {
        match event.ph.as_str() {
            "M" if event.name == "thread_name" => {
                let name = event.args.get("name").and_then(|v| v.as_str());
                names.insert((event.pid, event.tid), name.unwrap_or("").to_owned());
            }
            "X" => slices.push(event),
            "s" => {
                if let Some(id) = event.id {
                    flow_starts.insert(id, (event.pid, event.tid, event.ts));
                }
            }
            "f" => {
                if let Some(start) = event.id.and_then(|id| flow_starts.get(&id)) {
                    flows.push((*start, (event.pid, event.tid, event.ts)));
                }
            }
            _ => {}
        }
    }
    for slice in &slices {
        names.entry((slice.pid, slice.tid)).or_default();
    }
    let rows: BTreeMap<(i64, i64), usize> = names
        .keys()
        .enumerate()
        .map(|(row, key)| (*key, row))
        .collect();
    let end = slices
        .iter()
        .map(|s| s.ts + s.dur)
        .fold(0.0_f64, f64::max)
        .max(1e-3);
    let x = |ts: f64| LABEL + ts / end * PLOT;
    let y = |key: &(i64, i64)| 30.0 + rows[key] as f64 * ROW;
    let height = 50.0 + rows.len() as f64 * ROW;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{height}\" \
         font-family=\"monospace\" font-size=\"11\">",
        LABEL + PLOT + 20.0
    );
    out.push_str(
        "<defs><marker id=\"arrow\" markerWidth=\"8\" markerHeight=\"8\" refX=\"7\" refY=\"4\" \
         orient=\"auto\"><path d=\"M0,0 L8,4 L0,8 z\" fill=\"#e63946\"/></marker></defs>\n",
    );
    out.push_str("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    let _ = writeln!(
        out,
        "<text x=\"{LABEL}\" y=\"14\">0 us</text><text x=\"{}\" y=\"14\" \
         text-anchor=\"end\">{:.3} us</text>",
        LABEL + PLOT,
        end
    );
    for (key, name) in &names {
        let label = if name.is_empty() {
            format!("rank {} track {}", key.0, key.1)
        } else {
            name.clone()
        };
        let _ = writeln!(
            out,
            "<text x=\"4\" y=\"{}\">{}</text><line x1=\"{LABEL}\" x2=\"{}\" y1=\"{}\" \
             y2=\"{}\" stroke=\"#eeeeee\"/>",
            y(key) + 14.0,
            escape(&label),
            LABEL + PLOT,
            y(key) + ROW,
            y(key) + ROW
        );
    }
    for slice in &slices {
        let key = (slice.pid, slice.tid);
        let op = slice.args.get("op").and_then(|v| v.as_str()).unwrap_or("");
        let _ = writeln!(
            out,
            "<rect x=\"{:.2}\" y=\"{:.2}\" width=\"{:.2}\" height=\"{}\" fill=\"{}\" \
             stroke=\"#555555\" stroke-width=\"0.3\"><title>{} {}</title></rect>",
            x(slice.ts),
            y(&key) + 3.0,
            (slice.dur / end * PLOT).max(0.8),
            ROW - 6.0,
            colour(&slice.cat, &slice.name),
            escape(&slice.name),
            escape(op)
        );
    }
    for (from, to) in &flows {
        let _ = writeln!(
            out,
            "<line x1=\"{:.2}\" y1=\"{:.2}\" x2=\"{:.2}\" y2=\"{:.2}\" stroke=\"#e63946\" \
             stroke-width=\"0.8\" marker-end=\"url(#arrow)\"/>",
            x(from.2),
            y(&(from.0, from.1)) + ROW / 2.0,
            x(to.2),
            y(&(to.0, to.1)) + ROW / 2.0
        );
    }
    out.push_str("</svg>\n");
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_rows_slices_and_arrows() {
        let json = r#"{"traceEvents": [
            {"ph": "M", "name": "thread_name", "pid": 0, "tid": 1, "args": {"name": "rank 0 block 0 lane 0"}},
            {"ph": "M", "name": "thread_name", "pid": 1, "tid": 17, "args": {"name": "rank 1 block 0 lane 0"}},
            {"ph": "X", "name": "notify", "cat": "signal", "pid": 0, "tid": 1, "ts": 0.1, "dur": 0.001, "args": {}},
            {"ph": "X", "name": "wait", "cat": "signal", "pid": 1, "tid": 17, "ts": 0, "dur": 1.1, "args": {"op": "pld.system.wait at k.mlir:3:5"}},
            {"ph": "s", "id": 1, "pid": 0, "tid": 1, "ts": 0.1},
            {"ph": "f", "bp": "e", "id": 1, "pid": 1, "tid": 17, "ts": 1.1}
        ]}"#;
        let svg = svg(json).unwrap();
        assert!(svg.starts_with("<svg"));
        assert!(svg.contains(">rank 1 block 0 lane 0</text>"));
        assert_eq!(svg.matches("<rect x=").count(), 2);
        assert_eq!(svg.matches("marker-end").count(), 1);
        assert!(svg.contains("pld.system.wait at k.mlir:3:5"));
        assert!(super::svg("[").is_err());
    }
}
