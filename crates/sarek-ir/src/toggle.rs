//! On/off switches read from the environment (`SAREK_JIT_LANES=0`, ...): one reading rule for
//! every such variable of the compiler and the CPU engine, so that `0` and `1` mean the same
//! to all of them (the runtime's `Config::from_env` reads its switches by the same rule).
//!
//! ```
//! use sarek_ir::toggle::{self, Toggle};
//!
//! // Read once per process: the switch of a hot path.
//! static FAST_PATH: Toggle = Toggle::new("SAREK_EXAMPLE_FAST_PATH", true);
//! assert!(FAST_PATH.get());
//! // Read at each call.
//! assert!(!toggle::enabled("SAREK_EXAMPLE_CHECKS", false));
//! ```

use std::sync::OnceLock;

/// Whether the on/off variable `name` is on: `0` turns it off, `1` on, and anything else
/// (unset included) leaves `default`. Read at each call, so a program that sets the variable
/// sees the change.
pub fn enabled(name: &str, default: bool) -> bool {
    match std::env::var(name).as_deref() {
        Ok("0") => false,
        Ok("1") => true,
        _ => default,
    }
}

/// An on/off variable read once per process, by [`enabled`]'s rule: for a switch that a hot
/// path asks about (every launch), where reading the environment each time would cost a
/// lock and an allocation.
#[derive(Debug)]
pub struct Toggle {
    name: &'static str,
    default: bool,
    value: OnceLock<bool>,
}

impl Toggle {
    /// The switch `name`, `default` when the variable is neither `0` nor `1`.
    pub const fn new(name: &'static str, default: bool) -> Toggle {
        Toggle {
            name,
            default,
            value: OnceLock::new(),
        }
    }

    /// Whether it is on, as the environment said the first time it was asked.
    pub fn get(&self) -> bool {
        *self.value.get_or_init(|| enabled(self.name, self.default))
    }
}
