//! `gpu_println!`, `gpu_print!` and assertions in kernels: the lines in invocation order
//! with Rust's formatting, a full buffer's dropped count, the output redirected, and a failed
//! assertion as `Error::KernelAssert` naming the first failing invocation.

use std::sync::{Arc, Mutex};

use sarek::prelude::*;
use sarek::{DebugOutput, Error};

use crate::common::backends;

#[sarek::kernel(workgroup_size = [4])]
fn show(x: &[f32], v: &[Vec2], flag: &[u32]) {
    let i = global_thread_id();
    if i < x.len() {
        gpu_println!("i = {i}, x = {:.3}, v = {:?}", x[i], v[i]);
        gpu_print!("[{:>4}|{:<3}|", i as i32 - 3, flag[i] != 0);
        gpu_println!("{0:+.1}] {{done}}", x[i]);
    }
}

#[sarek::kernel(workgroup_size = [64])]
fn chatty(out: &mut [u32]) {
    let i = global_thread_id();
    if i < out.len() {
        gpu_println!("{i}");
        out[i] = i as u32;
    }
}

#[sarek::kernel(workgroup_size = [4])]
fn checked(x: &[u32], out: &mut [u32]) {
    let i = global_thread_id();
    if i < x.len() {
        assert!(x[i] < 10, "x[{i}] = {} is too large", x[i]);
        out[i] = x[i] * 2;
    }
}

#[sarek::kernel(workgroup_size = [4])]
fn equal(x: &[u32], y: &[u32], out: &mut [u32]) {
    let i = global_thread_id();
    if i < x.len() {
        assert_eq!(x[i], y[i], "at {}", i);
        assert_ne!(x[i], 99);
        out[i] = x[i] + y[i];
    }
}

/// Collects `dev`'s printed lines.
fn capture(dev: &Device) -> Arc<Mutex<Vec<String>>> {
    let lines = Arc::new(Mutex::new(Vec::new()));
    let sink = lines.clone();
    dev.set_debug_output(DebugOutput::lines(move |l| {
        sink.lock().unwrap().push(l.to_owned())
    }));
    lines
}

#[backends]
fn prints_come_in_invocation_order_with_rusts_formatting(dev: &Device) {
    let lines = capture(dev);
    let n = 10;
    let x: Vec<f32> = (0..n).map(|i| i as f32 / 3.0 - 1.0).collect();
    let v: Vec<Vec2> = (0..n).map(|i| Vec2::new(i as f32, 0.5)).collect();
    let flag: Vec<u32> = (0..n).map(|i| i as u32 % 3).collect();
    let (xb, vb, fb) = (
        dev.upload(&x).unwrap(),
        dev.upload(&v).unwrap(),
        dev.upload(&flag).unwrap(),
    );
    show.launch(dev, Grid::cover(n), &xb, &vb, &fb)
        .unwrap()
        .wait()
        .unwrap();
    let want: Vec<String> = (0..n)
        .flat_map(|i| {
            [
                format!("i = {i}, x = {:.3}, v = {:?}", x[i], v[i]),
                format!(
                    "[{:>4}|{:<3}|{:+.1}] {{done}}",
                    i as i32 - 3,
                    flag[i] != 0,
                    x[i]
                ),
            ]
        })
        .collect();
    assert_eq!(*lines.lock().unwrap(), want);
}

#[backends]
fn a_full_buffer_reports_how_many_lines_it_dropped(dev: &Device) {
    let lines = capture(dev);
    dev.set_debug_buffer_kib(4);
    let n = 2048;
    let mut out = dev.zeros::<u32>(n).unwrap();
    chatty.launch(dev, Grid::cover(n), &mut out).unwrap();
    // The read waits for the launch and reports its lines.
    assert_eq!(out.read().unwrap(), (0..n as u32).collect::<Vec<_>>());
    let lines = lines.lock().unwrap();
    let (last, printed) = lines.split_last().unwrap();
    // Each record is its number, three ids and one argument: 5 words of 1024, less the header.
    assert_eq!(printed.len(), (1024 - 3) / 5);
    let dropped = n - printed.len();
    assert!(
        last.contains(&format!("printed {dropped} more records")),
        "{last}"
    );
    // The lines kept are in invocation order.
    let ids: Vec<usize> = printed.iter().map(|l| l.parse().unwrap()).collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "{ids:?}");
}

#[backends]
fn a_passing_assertion_changes_nothing(dev: &Device) {
    let x: Vec<u32> = (0..9).collect();
    let xb = dev.upload(&x).unwrap();
    let mut out = dev.zeros::<u32>(x.len()).unwrap();
    checked
        .launch(dev, Grid::cover(x.len()), &xb, &mut out)
        .unwrap()
        .wait()
        .unwrap();
    assert_eq!(
        out.read().unwrap(),
        x.iter().map(|v| v * 2).collect::<Vec<_>>()
    );
}

#[backends]
fn a_failed_assertion_names_the_first_failing_invocation(dev: &Device) {
    let mut x: Vec<u32> = (0..9).collect();
    x[6] = 42;
    let xb = dev.upload(&x).unwrap();
    let mut out = dev.zeros::<u32>(x.len()).unwrap();
    let result = checked
        .launch(dev, Grid::cover(x.len()), &xb, &mut out)
        .and_then(|l| l.wait());
    match result {
        Err(Error::KernelAssert {
            kernel,
            location,
            message,
            global,
            block,
            thread,
        }) => {
            assert_eq!(kernel, "checked");
            assert!(location.ends_with("debugging.rs:35:9"), "{location}");
            assert_eq!(
                message,
                "assertion failed: x[i] < 10: x[6] = 42 is too large"
            );
            assert_eq!((global, block, thread), ([6, 0, 0], [1, 0, 0], [2, 0, 0]));
        }
        other => panic!("expected KernelAssert, got {other:?}"),
    }
    // Reported once: the next launch is clean.
    x[6] = 6;
    let xb = dev.upload(&x).unwrap();
    checked
        .launch(dev, Grid::cover(x.len()), &xb, &mut out)
        .unwrap()
        .wait()
        .unwrap();
}

#[backends]
fn assert_eq_shows_both_values(dev: &Device) {
    let x = [1u32, 2, 3, 4];
    let y = [1u32, 2, 7, 4];
    let (xb, yb) = (dev.upload(&x).unwrap(), dev.upload(&y).unwrap());
    let mut out = dev.zeros::<u32>(4).unwrap();
    let result = equal
        .launch(dev, Grid::cover(4), &xb, &yb, &mut out)
        .and_then(|l| l.wait());
    let Err(e @ Error::KernelAssert { .. }) = result else {
        panic!("expected KernelAssert, got {result:?}");
    };
    let Error::KernelAssert {
        message, global, ..
    } = &e
    else {
        unreachable!()
    };
    assert_eq!(
        message,
        "assertion `left == right` failed: at 2\n  left: 3\n right: 7"
    );
    assert_eq!(*global, [2, 0, 0]);
    assert!(e.to_string().contains("kernel `equal` panicked at"), "{e}");
}

#[sarek::kernel(workgroup_size = [4])]
fn checked_in_debug(x: &[u32], out: &mut [u32]) {
    let i = global_thread_id();
    if i < x.len() {
        debug_assert!(x[i] < 10, "x[{i}] = {}", x[i]);
        debug_assert_eq!(x[i], x[i]);
        out[i] = x[i] + 1;
    }
}

#[backends]
fn debug_assertions_follow_the_crates_profile(dev: &Device) {
    let x = [1u32, 50, 3];
    let xb = dev.upload(&x).unwrap();
    let mut out = dev.zeros::<u32>(3).unwrap();
    let result = checked_in_debug
        .launch(dev, Grid::cover(3), &xb, &mut out)
        .and_then(|l| l.wait());
    if cfg!(debug_assertions) {
        let Err(Error::KernelAssert {
            message, global, ..
        }) = result
        else {
            panic!("expected KernelAssert, got {result:?}");
        };
        assert_eq!(message, "assertion failed: x[i] < 10: x[1] = 50");
        assert_eq!(global, [1, 0, 0]);
        assert!(checked_in_debug::WGSL.contains("sarek_debug"));
    } else {
        result.unwrap();
        assert_eq!(out.read().unwrap(), [2, 51, 4]);
        // Without debug assertions the kernel has no debug channel at all.
        assert!(!checked_in_debug::WGSL.contains("sarek_debug"));
        let abi = &checked_in_debug::ABI;
        assert!(!abi.debug);
    }
}

#[sarek::kernel(workgroup_size = [4])]
fn quiet(out: &mut [u32]) {
    let i = global_thread_id();
    if i < out.len() {
        out[i] = i as u32;
    }
}

#[test]
fn only_kernels_that_print_or_assert_have_a_debug_channel() {
    let (quiet_abi, chatty_abi) = (&quiet::ABI, &chatty::ABI);
    assert!(!quiet_abi.debug);
    assert!(!quiet::WGSL.contains("sarek_debug"));
    assert!(!quiet::WGSL.contains("@group(2)"));
    assert!(chatty_abi.debug);
    assert!(chatty::WGSL.contains("@group(2) @binding(0) var<storage, read_write> sarek_debug"));
}
