//! `--timeline FILE.svg`: the run's trace events (`--trace`, Chrome's
//! trace-event JSON) drawn as a static picture for a README or a bug
//! report: one row per track (a rank's threads and their engines), each
//! thread's life underneath, waits and deferred conditions shaded,
//! transfers, tile math and notifies in their own colours, what a stopped
//! run left blocked in red, an arrow from every notify to the wait it
//! released, and a legend. Time runs from the first event.

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

/// The widest label, in characters, that fits left of the plot.
const LABEL_CHARS: usize = 38;

fn colour(category: &str, name: &str) -> &'static str {
    match (category, name) {
        ("signal", "wait") => "#d9d9d9",
        ("signal", "deferred") => "#bdb2ff",
        ("signal", _) => "#f4a261",
        ("transfer", _) => "#457b9d",
        ("compute", _) => "#2a9d8f",
        ("thread", _) => "#f3f3f3",
        ("blocked", _) => "#e63946",
        _ => "#999999",
    }
}

/// What the legend explains, with the category and name it is drawn for.
const LEGEND: &[(&str, &str, &str)] = &[
    ("thread", "", "a thread's life"),
    ("signal", "wait", "wait"),
    ("signal", "deferred", "deferred condition"),
    ("signal", "notify", "notify"),
    ("transfer", "", "transfer"),
    ("compute", "", "tile math"),
    ("blocked", "", "blocked when the run stopped"),
];

/// `label` cut to fit left of the plot, its end kept (where a track's
/// task and engine are named).
fn fitted(label: &str) -> String {
    let chars: Vec<char> = label.chars().collect();
    if chars.len() <= LABEL_CHARS {
        return label.to_owned();
    }
    let tail: String = chars[chars.len() - (LABEL_CHARS - 1)..].iter().collect();
    format!("\u{2026}{tail}")
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
    // A thread's life under what it did.
    slices.sort_by_key(|slice| slice.cat != "thread");
    let rows: BTreeMap<(i64, i64), usize> = names
        .keys()
        .enumerate()
        .map(|(row, key)| (*key, row))
        .collect();
    // Time from the first event: a wall-clock trace starts when the process
    // did, before the threads.
    let start = slices.iter().map(|s| s.ts).fold(f64::INFINITY, f64::min);
    let start = if start.is_finite() { start } else { 0.0 };
    let end = (slices.iter().map(|s| s.ts + s.dur).fold(0.0_f64, f64::max) - start).max(1e-3);
    let x = |ts: f64| LABEL + (ts - start) / end * PLOT;
    let y = |key: &(i64, i64)| 30.0 + rows[key] as f64 * ROW;
    let legend_y = 40.0 + rows.len() as f64 * ROW;
    let height = legend_y + 40.0;
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
        // A cut label keeps the whole one as its tooltip.
        let shown = fitted(&label);
        let text = if shown == label {
            escape(&label)
        } else {
            format!("<title>{}</title>{}", escape(&label), escape(&shown))
        };
        let _ = writeln!(
            out,
            "<text x=\"4\" y=\"{}\">{text}</text><line x1=\"{LABEL}\" x2=\"{}\" y1=\"{}\" \
             y2=\"{}\" stroke=\"#eeeeee\"/>",
            y(key) + 14.0,
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
    legend(&mut out, legend_y);
    out.push_str("</svg>\n");
    Ok(out)
}

/// The legend: a box per colour, the arrow, and what an `engines N` row is.
fn legend(out: &mut String, top: f64) {
    let mut at = 4.0;
    for (category, name, text) in LEGEND {
        let _ = write!(
            out,
            "<rect x=\"{at:.1}\" y=\"{top}\" width=\"12\" height=\"12\" fill=\"{}\" \
             stroke=\"#555555\" stroke-width=\"0.3\"/><text x=\"{:.1}\" y=\"{}\">{}</text>",
            colour(category, name),
            at + 16.0,
            top + 10.0,
            escape(text)
        );
        at += 24.0 + 6.6 * text.len() as f64;
    }
    // Drawn, not a marker: a picture's arrows are its flows.
    let _ = writeln!(
        out,
        "<line x1=\"{at:.1}\" y1=\"{mid}\" x2=\"{:.1}\" y2=\"{mid}\" stroke=\"#e63946\"/>\
         <path d=\"M{:.1},{} L{:.1},{mid} L{:.1},{} z\" fill=\"#e63946\"/>\
         <text x=\"{:.1}\" y=\"{}\">the notify that released a wait</text>",
        at + 14.0,
        at + 14.0,
        top + 2.0,
        at + 20.0,
        at + 14.0,
        top + 10.0,
        at + 26.0,
        top + 10.0,
        mid = top + 6.0
    );
    let _ = writeln!(
        out,
        "<text x=\"4\" y=\"{}\">a row \"... engines N\": the transfers and tile math a thread has \
         in flight beside its own work</text>",
        top + 28.0
    );
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
        assert_eq!(svg.matches("<rect x=").count(), 2 + LEGEND.len());
        assert_eq!(svg.matches("marker-end").count(), 1);
        assert!(svg.contains("pld.system.wait at k.mlir:3:5"));
        assert!(svg.contains("a thread's life") && svg.contains("engines N"));
        assert!(super::svg("[").is_err());
    }

    #[test]
    fn time_runs_from_the_first_event_and_long_labels_are_cut() {
        let long = "rank 0 block 0 lane 0 (task 12 consume_payload_spmd) engines 1";
        let json = format!(
            r#"{{"traceEvents": [
            {{"ph": "M", "name": "thread_name", "pid": 0, "tid": 1, "args": {{"name": "{long}"}}}},
            {{"ph": "X", "name": "host", "cat": "thread", "pid": 0, "tid": 1, "ts": 300, "dur": 100, "args": {{}}}},
            {{"ph": "X", "name": "wait", "cat": "signal", "pid": 0, "tid": 1, "ts": 350, "dur": 50, "args": {{}}}}
        ]}}"#
        );
        let svg = svg(&json).unwrap();
        // 300 us is the origin: the plot spans 100 us.
        assert!(svg.contains(">100.000 us</text>"), "{svg}");
        assert!(svg.contains("<rect x=\"260.00\""), "{svg}");
        assert!(svg.contains("\u{2026}"), "{svg}");
        // The thread's life is drawn first, under the wait.
        assert!(svg.find("#f3f3f3").unwrap() < svg.find("#d9d9d9").unwrap());
    }
}
