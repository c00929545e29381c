//! The machine model that time is measured in: `pld-run --timing` charges
//! every op of a run by it (`lowering/runtime/sim/timing.h`), and
//! `pld-decompose-collectives`' `auto` predicts each algorithm's time with
//! it. One model, so that the choice a compile makes is the one the
//! simulator's clock would make. `docs/performance.md` gives the source of
//! every parameter of [`Model::ascend_910b`].

use std::fmt;

/// A model name, parameter or value the machine model does not know or
/// take, in words (`unknown machine model 'x' (known: 910b)`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ModelError(pub String);

impl From<String> for ModelError {
    fn from(message: String) -> Self {
        ModelError(message)
    }
}

/// How fast the parts of a node move and combine data.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Model {
    /// One signal hop: from a notify to the moment a waiter on another
    /// rank can see it.
    pub alpha_ns: f64,
    /// One link, a peer's window read into this rank (a pull).
    pub link_bytes_per_ns: f64,
    /// One link, this rank writing into a peer's window (a push).
    pub link_write_bytes_per_ns: f64,
    /// Everything one rank receives over all its links at once.
    pub ingress_bytes_per_ns: f64,
    /// A core's own global memory to or from its unified buffer.
    pub local_bytes_per_ns: f64,
    /// The vector unit combining two tiles (bytes of one operand per ns).
    pub combine_bytes_per_ns: f64,
    /// Issuing one transfer, notify or scalar access on a core.
    pub issue_ns: f64,
}

/// The parameters by name, as `pld-run --model KEY=VALUE` and the
/// decomposition's options spell them.
pub const PARAMETERS: &[(&str, &str)] = &[
    ("alpha_ns", "one signal hop, ns"),
    ("link_bytes_per_ns", "one link, pull (bytes per ns = GB/s)"),
    ("link_write_bytes_per_ns", "one link, push (GB/s)"),
    ("ingress_bytes_per_ns", "all links into one rank (GB/s)"),
    (
        "local_bytes_per_ns",
        "global memory <-> unified buffer per core (GB/s)",
    ),
    ("combine_bytes_per_ns", "vector combine per core (GB/s)"),
    ("issue_ns", "issuing one transfer or signal, ns"),
];

impl Model {
    /// Ascend 910B, eight NPUs fully meshed by HCCS (docs/performance.md).
    pub fn ascend_910b() -> Self {
        Model {
            alpha_ns: 500.0,
            link_bytes_per_ns: 25.741,
            link_write_bytes_per_ns: 19.371,
            ingress_bytes_per_ns: 137.2,
            local_bytes_per_ns: 108.3,
            combine_bytes_per_ns: 230.0,
            issue_ns: 13.3,
        }
    }

    /// The model a name stands for (`910b`).
    pub fn named(name: &str) -> Result<Self, ModelError> {
        match name {
            "910b" => Ok(Self::ascend_910b()),
            other => Err(ModelError(format!(
                "unknown machine model '{other}' (known: 910b)"
            ))),
        }
    }

    /// The parameter `key`'s value.
    pub fn get(&self, key: &str) -> Option<f64> {
        Some(match key {
            "alpha_ns" => self.alpha_ns,
            "link_bytes_per_ns" => self.link_bytes_per_ns,
            "link_write_bytes_per_ns" => self.link_write_bytes_per_ns,
            "ingress_bytes_per_ns" => self.ingress_bytes_per_ns,
            "local_bytes_per_ns" => self.local_bytes_per_ns,
            "combine_bytes_per_ns" => self.combine_bytes_per_ns,
            "issue_ns" => self.issue_ns,
            _ => return None,
        })
    }

    /// Overrides parameter `key` with `value` (a finite number, positive
    /// for rates, non-negative for times).
    pub fn set(&mut self, key: &str, value: f64) -> Result<(), ModelError> {
        let slot = match key {
            "alpha_ns" => &mut self.alpha_ns,
            "link_bytes_per_ns" => &mut self.link_bytes_per_ns,
            "link_write_bytes_per_ns" => &mut self.link_write_bytes_per_ns,
            "ingress_bytes_per_ns" => &mut self.ingress_bytes_per_ns,
            "local_bytes_per_ns" => &mut self.local_bytes_per_ns,
            "combine_bytes_per_ns" => &mut self.combine_bytes_per_ns,
            "issue_ns" => &mut self.issue_ns,
            _ => {
                let known: Vec<&str> = PARAMETERS.iter().map(|(name, _)| *name).collect();
                return Err(format!(
                    "unknown model parameter '{key}' (known: {})",
                    known.join(", ")
                )
                .into());
            }
        };
        let is_rate = key.ends_with("_per_ns");
        if !value.is_finite() || value < 0.0 || (is_rate && value == 0.0) {
            return Err(format!(
                "model parameter {key} must be {}, found {value}",
                if is_rate {
                    "a positive number"
                } else {
                    "a non-negative number"
                }
            )
            .into());
        }
        *slot = value;
        Ok(())
    }

    /// Applies `KEY=VALUE` overrides, comma-separated.
    pub fn with_overrides(mut self, overrides: &str) -> Result<Self, ModelError> {
        for item in overrides
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| format!("expected KEY=VALUE, found '{item}'"))?;
            let value: f64 = value
                .trim()
                .parse()
                .map_err(|_| format!("expected a number for {key}, found '{value}'"))?;
            self.set(key.trim(), value)?;
        }
        Ok(self)
    }
}

impl fmt::Display for Model {
    /// `KEY=VALUE,...`, the form [`Model::with_overrides`] reads.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let items: Vec<String> = PARAMETERS
            .iter()
            .map(|(key, _)| format!("{key}={}", self.get(key).expect("a known key")))
            .collect();
        f.write_str(&items.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overrides_round_trip() {
        let model = Model::ascend_910b()
            .with_overrides("alpha_ns=500, ingress_bytes_per_ns=100")
            .unwrap();
        assert_eq!(model.alpha_ns, 500.0);
        assert_eq!(model.ingress_bytes_per_ns, 100.0);
        assert_eq!(
            Model::ascend_910b()
                .with_overrides(&model.to_string())
                .unwrap(),
            model
        );
        assert!(model.with_overrides("link_bytes_per_ns=0").is_err());
        assert!(model.with_overrides("nope=1").is_err());
        assert!(model.with_overrides("alpha_ns").is_err());
    }
}
