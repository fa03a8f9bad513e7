//! `SAREK_DUMP_WGSL=<dir>` writes each kernel's WGSL and ABI when its pipeline is created.
//! A test binary of its own, since it sets an environment variable.

mod common;

use sarek::prelude::*;

#[sarek::kernel]
fn dumped(v: &mut [u32]) {
    let i = global_thread_id();
    if i < v.len() {
        v[i] = 3;
    }
}

#[test]
fn dump_directory_holds_wgsl_and_abi() {
    let dir = std::env::temp_dir().join(format!("sarek-dump-{}", std::process::id()));
    // SAFETY: this test binary has one test, so no other thread reads the environment.
    unsafe { std::env::set_var("SAREK_DUMP_WGSL", &dir) };
    let Some(dev) = common::device() else { return };
    let mut v = dev.zeros::<u32>(4).unwrap();
    dumped.launch(&dev, Grid::cover(4), &mut v).unwrap();
    assert_eq!(v.read().unwrap(), vec![3; 4]);
    let wgsl = std::fs::read_to_string(dir.join("dumped.wgsl")).expect("WGSL dumped");
    assert!(
        wgsl.starts_with("// Sarek kernel `dumped`, from tests/dump.rs:"),
        "{wgsl}"
    );
    assert!(wgsl.contains(dumped::WGSL));
    let abi = std::fs::read_to_string(dir.join("dumped.abi.json")).expect("ABI dumped");
    assert!(abi.contains("\"entryPoint\": \"sarek_main\""), "{abi}");
    assert!(abi.contains("\"access\": \"read_write\""), "{abi}");
    let _ = std::fs::remove_dir_all(&dir);
}
