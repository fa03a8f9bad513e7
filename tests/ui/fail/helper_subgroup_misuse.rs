#[sarek::module]
mod m {
    use sarek::prelude::*;

    /// The sum over the caller's subgroup: every thread of the workgroup must call it.
    fn total(v: f32) -> f32 {
        subgroup_add(v)
    }

    // A helper that runs a subgroup operation, called where only some threads call it.
    #[sarek::kernel(workgroup_size = [64])]
    pub fn divergent_call(x: &mut [f32]) {
        let i = global_thread_id();
        if x[i] > 0.0 {
            x[i] = total(x[i]);
        }
    }

    /// `subgroup_invocation_id()` is an input of WGSL's entry point, not of a helper.
    fn lane() -> u32 {
        subgroup_invocation_id()
    }

    #[sarek::kernel(workgroup_size = [64])]
    pub fn builtin_in_helper(x: &mut [u32]) {
        x[global_thread_id()] = lane();
    }
}

fn main() {}
