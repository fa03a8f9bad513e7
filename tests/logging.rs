//! `SAREK_LOG=info` logs the adapter choice, pipeline creation and launch times. The test runs
//! itself again as a child process with the variable set and reads the child's standard error.

mod common;

use sarek::prelude::*;

#[sarek::kernel]
fn logged(v: &mut [u32]) {
    let i = global_thread_id();
    if i < v.len() {
        v[i] = 1;
    }
}

const CHILD: &str = "SAREK_LOG_TEST_CHILD";

#[test]
fn sarek_log_reports_adapter_pipeline_and_launches() {
    if std::env::var_os(CHILD).is_some() {
        let dev = Device::gpu().expect("the parent found a device");
        let mut v = dev.zeros::<u32>(8).unwrap();
        logged.launch(&dev, Grid::cover(8), &mut v).unwrap();
        assert_eq!(v.read().unwrap(), vec![1; 8]);
        return;
    }
    let Some(_) = common::gpu_device() else {
        return;
    };
    let output = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "sarek_log_reports_adapter_pipeline_and_launches",
            "--nocapture",
        ])
        .env(CHILD, "1")
        .env("SAREK_LOG", "debug")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "child failed: {stderr}");
    assert!(stderr.contains("sarek: using adapter"), "{stderr}");
    assert!(
        stderr.contains("sarek: created the pipeline of `logged`"),
        "{stderr}"
    );
    assert!(stderr.contains("sarek: launched `logged`"), "{stderr}");
}
