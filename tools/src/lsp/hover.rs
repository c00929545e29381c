//! Hover over an op: MLIR's server shows the op's name and its generic
//! form; the op's ODS summary and description
//! ([`pld_dialect::ops::documentation`]) replace the generic form, which
//! repeats what the line under the cursor already says.

use serde_json::Value;

/// Rewrites `result`, the result of a `textDocument/hover` of MLIR's
/// server, when it is the hover of an op ODS documents; any other (a
/// value's, a block's, an undocumented op's, `null`) stays as it is.
pub fn add_documentation(result: &mut Value) {
    let Some(text) = result["contents"]["value"].as_str() else {
        return;
    };
    // An op's hover starts with its quoted name (and, for a symbol, its
    // visibility and name): `"pld.system.notify"`, `"func.func" : public @k`.
    let Some(first_line) = text.lines().next().filter(|line| line.starts_with('"')) else {
        return;
    };
    let Some(name) = first_line[1..].split('"').next() else {
        return;
    };
    let Some(documentation) = pld_dialect::ops::documentation(name) else {
        return;
    };
    let mut value = format!("{first_line}\n\n{}", documentation.summary);
    if !documentation.description.is_empty() {
        value.push_str("\n\n");
        value.push_str(documentation.description);
    }
    result["contents"]["value"] = Value::String(value);
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_ops_generic_form_becomes_its_documentation() {
        let mut hover = json!({"contents": {"kind": "markdown",
            "value": "\"pld.system.world_size\"\n\nGeneric Form:\n\n```mlir\n%0 = \"pld.system.world_size\"() : () -> i64\n```\n"}});
        add_documentation(&mut hover);
        let value = hover["contents"]["value"].as_str().unwrap();
        assert!(
            value.starts_with(
                "\"pld.system.world_size\"\n\nnumber of ranks (host orchestrator only)\n\nHost-only:"
            ),
            "{value}"
        );
        assert!(!value.contains("Generic Form"));
    }

    #[test]
    fn other_hovers_stay() {
        for mut hover in [
            json!(null),
            json!({"contents": {"kind": "markdown", "value": "Operation: \"pld.system.world_size\"\n\nResult #0"}}),
            json!({"contents": {"kind": "markdown", "value": "\"tensor.empty\"\n\nGeneric Form:"}}),
        ] {
            let before = hover.clone();
            add_documentation(&mut hover);
            assert_eq!(hover, before);
        }
    }
}
