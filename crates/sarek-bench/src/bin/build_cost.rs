//! What an instance of a generic kernel costs at build time: `#[sarek::module]` is expanded
//! in this process, as the proc macro runs it, for a module whose generic kernel (a tree
//! reduction in workgroup memory, the shape of a library's `reduce`) has one instance of its
//! own and then `n` more asked for with `sarek::instances!`. The difference over `n` is the
//! cost of one instance: lowered, optimised, written as WGSL, validated by naga and checked by
//! the in-bounds proof. Build it in the profile whose cost you want (a user's default `dev`
//! profile builds proc macros unoptimised).
//!
//! `cargo run -p sarek-bench --bin build_cost [-- n]`

use std::time::{Duration, Instant};

use proc_macro2::TokenStream;

fn module(requests: usize) -> TokenStream {
    let list: Vec<String> = (0..requests)
        .map(|k| format!("reduce<{}>", k + 2))
        .collect();
    let request = if list.is_empty() {
        String::new()
    } else {
        format!("sarek::instances!({});", list.join(", "))
    };
    format!(
        r#"mod lib {{
            use sarek::prelude::*;

            #[sarek::kernel(workgroup_size = [256], instances(S = [1]))]
            pub fn reduce<const S: usize>(xs: &[f32], partials: &mut [f32]) {{
                let tile = shared::<[f32; 256]>();
                let t = thread_idx_x();
                let i = global_thread_id();
                tile[t] = if i < xs.len() {{ xs[i] * (S as f32) }} else {{ 0.0 }};
                block_barrier();
                let mut stride = 128;
                while stride > 0 {{
                    if t < stride {{
                        tile[t] = tile[t] + tile[t + stride];
                    }}
                    block_barrier();
                    stride /= 2;
                }}
                if t == 0 && block_idx_x() < partials.len() {{
                    partials[block_idx_x()] = tile[0];
                }}
            }}

            {request}
        }}"#
    )
    .parse()
    .expect("the module parses")
}

/// The fastest of three expansions of the module with `requests` requests.
fn expand(requests: usize) -> Duration {
    let tokens = module(requests);
    (0..3)
        .map(|_| {
            let start = Instant::now();
            let out = sarek_codegen::front::expand_module(TokenStream::new(), tokens.clone());
            let took = start.elapsed();
            let text = out.to_string();
            assert!(
                !text.contains("compile_error"),
                "the module does not expand: {text}"
            );
            assert_eq!(text.matches("unsafe impl").count(), requests + 1);
            took
        })
        .min()
        .expect("three runs")
}

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(16);
    let profile = if cfg!(debug_assertions) {
        "debug"
    } else {
        "release"
    };
    let base = expand(0);
    let more = expand(n);
    let per = (more.saturating_sub(base)).as_secs_f64() * 1e3 / n as f64;
    println!(
        "build_cost ({profile} build of the macro's code): module with 1 instance {:.1} ms, with {} instances {:.1} ms: {per:.2} ms per instance",
        base.as_secs_f64() * 1e3,
        n + 1,
        more.as_secs_f64() * 1e3
    );
}
