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
    /// A core's own global memory into its unified buffer (MTE2).
    pub local_load_bytes_per_ns: f64,
    /// A core's unified buffer into its own global memory (MTE3).
    pub local_store_bytes_per_ns: f64,
    /// One core reading a peer's window into its unified buffer (a remote
    /// TLOAD on its MTE2 engine), however fast the link: what a single
    /// core can pull.
    pub core_pull_bytes_per_ns: f64,
    /// One core writing its unified buffer into a peer's window (a remote
    /// TSTORE on its MTE3 engine).
    pub core_push_bytes_per_ns: f64,
    /// What one SDMA transfer (TGET_ASYNC, TPUT_ASYNC) costs beyond its
    /// bytes: the launch, and the flag its completion is polled by.
    pub sdma_launch_ns: f64,
    /// The SDMA engine moving global memory to global memory, one core's
    /// session.
    pub sdma_bytes_per_ns: f64,
    /// The vector unit combining two tiles (bytes of one operand per ns).
    pub combine_bytes_per_ns: f64,
    /// Issuing one transfer, notify or scalar access on a core.
    pub issue_ns: f64,
    /// The cube's clock: a mad's cycles per ns.
    pub cube_cycles_per_ns: f64,
    /// A cube core's own global memory into L1 (MTE2, GM_TO_L1).
    pub l1_load_bytes_per_ns: f64,
    /// L1 into L0A (MTE1, TEXTRACT of a left operand).
    pub l0a_bytes_per_ns: f64,
    /// L1 into L0B (MTE1, TEXTRACT of a right operand).
    pub l0b_bytes_per_ns: f64,
    /// L0C out to global memory through the fixpipe (L0C_TO_GM).
    pub fixpipe_bytes_per_ns: f64,
}

/// One parameter: its name (as `pld-run --model KEY=VALUE`, the
/// decomposition's `model-overrides` and the simulator's job file spell
/// it), what it is, and where it lives in a [`Model`].
pub struct Parameter {
    pub name: &'static str,
    pub description: &'static str,
    field: fn(&mut Model) -> &mut f64,
}

/// Every parameter, in the order they print.
pub const PARAMETERS: &[Parameter] = &[
    Parameter {
        name: "alpha_ns",
        description: "one signal hop, ns",
        field: |m| &mut m.alpha_ns,
    },
    Parameter {
        name: "link_bytes_per_ns",
        description: "one link, pull (bytes per ns = GB/s)",
        field: |m| &mut m.link_bytes_per_ns,
    },
    Parameter {
        name: "link_write_bytes_per_ns",
        description: "one link, push (GB/s)",
        field: |m| &mut m.link_write_bytes_per_ns,
    },
    Parameter {
        name: "ingress_bytes_per_ns",
        description: "all links into one rank (GB/s)",
        field: |m| &mut m.ingress_bytes_per_ns,
    },
    Parameter {
        name: "local_load_bytes_per_ns",
        description: "global memory -> unified buffer per core (GB/s)",
        field: |m| &mut m.local_load_bytes_per_ns,
    },
    Parameter {
        name: "local_store_bytes_per_ns",
        description: "unified buffer -> global memory per core (GB/s)",
        field: |m| &mut m.local_store_bytes_per_ns,
    },
    Parameter {
        name: "core_pull_bytes_per_ns",
        description: "one core reading a peer's window (GB/s)",
        field: |m| &mut m.core_pull_bytes_per_ns,
    },
    Parameter {
        name: "core_push_bytes_per_ns",
        description: "one core writing a peer's window (GB/s)",
        field: |m| &mut m.core_push_bytes_per_ns,
    },
    Parameter {
        name: "sdma_launch_ns",
        description: "one SDMA transfer's launch and completion, ns",
        field: |m| &mut m.sdma_launch_ns,
    },
    Parameter {
        name: "sdma_bytes_per_ns",
        description: "the SDMA engine, one core's session (GB/s)",
        field: |m| &mut m.sdma_bytes_per_ns,
    },
    Parameter {
        name: "combine_bytes_per_ns",
        description: "vector combine per core (GB/s)",
        field: |m| &mut m.combine_bytes_per_ns,
    },
    Parameter {
        name: "issue_ns",
        description: "issuing one transfer or signal, ns",
        field: |m| &mut m.issue_ns,
    },
    Parameter {
        name: "cube_cycles_per_ns",
        description: "the cube's clock, GHz",
        field: |m| &mut m.cube_cycles_per_ns,
    },
    Parameter {
        name: "l1_load_bytes_per_ns",
        description: "global memory -> L1 per cube core (GB/s)",
        field: |m| &mut m.l1_load_bytes_per_ns,
    },
    Parameter {
        name: "l0a_bytes_per_ns",
        description: "L1 -> L0A per cube core (GB/s)",
        field: |m| &mut m.l0a_bytes_per_ns,
    },
    Parameter {
        name: "l0b_bytes_per_ns",
        description: "L1 -> L0B per cube core (GB/s)",
        field: |m| &mut m.l0b_bytes_per_ns,
    },
    Parameter {
        name: "fixpipe_bytes_per_ns",
        description: "L0C -> global memory per cube core (GB/s)",
        field: |m| &mut m.fixpipe_bytes_per_ns,
    },
];

/// One GiB/s in bytes per ns.
const GIB_PER_S: f64 = 1.073741824;

impl Model {
    /// Ascend 910B, eight NPUs fully meshed by HCCS (docs/performance.md).
    pub fn ascend_910b() -> Self {
        Model {
            alpha_ns: 500.0,
            link_bytes_per_ns: 25.741,
            link_write_bytes_per_ns: 19.371,
            ingress_bytes_per_ns: 137.2,
            local_load_bytes_per_ns: 108.3,
            local_store_bytes_per_ns: 202.4,
            core_pull_bytes_per_ns: 5.72,
            core_push_bytes_per_ns: 3.25,
            sdma_launch_ns: 2495.0,
            sdma_bytes_per_ns: 20.97,
            combine_bytes_per_ns: 230.0,
            issue_ns: 13.3,
            // pto-isa's cost model for a2a3 (include/pto/costmodel/
            // arch_config.hpp): its clock and the GM_TO_L1, L1_TO_L0A,
            // L1_TO_L0B and L0C_TO_GM rates of its BandwidthTable, GiB/s in
            // bytes per ns (docs/performance.md).
            cube_cycles_per_ns: 1.85,
            l1_load_bytes_per_ns: 135.0 * GIB_PER_S,
            l0a_bytes_per_ns: 441.0 * GIB_PER_S,
            l0b_bytes_per_ns: 220.5 * GIB_PER_S,
            fixpipe_bytes_per_ns: 70.0 * GIB_PER_S,
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

    fn parameter(key: &str) -> Result<&'static Parameter, ModelError> {
        PARAMETERS.iter().find(|p| p.name == key).ok_or_else(|| {
            let known: Vec<&str> = PARAMETERS.iter().map(|p| p.name).collect();
            ModelError(format!(
                "unknown model parameter '{key}' (known: {})",
                known.join(", ")
            ))
        })
    }

    /// The parameter `key`'s value.
    pub fn get(&self, key: &str) -> Option<f64> {
        let mut copy = *self;
        Self::parameter(key).ok().map(|p| *(p.field)(&mut copy))
    }

    /// Overrides parameter `key` with `value` (a finite number, positive
    /// for rates, non-negative for times).
    pub fn set(&mut self, key: &str, value: f64) -> Result<(), ModelError> {
        let parameter = Self::parameter(key)?;
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
        *(parameter.field)(self) = value;
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
            .map(|p| format!("{}={}", p.name, self.get(p.name).expect("a known key")))
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
