//! naga validation of emitted WGSL. Sarek runs it inside the macro, so a kernel whose WGSL
//! naga rejects never compiles; a rejection is a bug in Sarek, not in the user's kernel.

/// Parses and validates `wgsl` with naga, with all validation flags and the capabilities of
/// core WebGPU. The error text is naga's report, with the offending WGSL lines.
pub fn validate(wgsl: &str) -> Result<(), String> {
    let module = naga::front::wgsl::parse_str(wgsl).map_err(|e| e.emit_to_string(wgsl))?;
    let mut validator = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::empty(),
    );
    validator
        .validate(&module)
        .map(|_| ())
        .map_err(|e| e.emit_to_string(wgsl))
}
