//! Several devices in one process: the adapter list, opening an adapter by index or name,
//! copies between devices, the split launch helper (tested with the GPU, lavapipe here, and
//! the CPU backend as two devices), and which device `Device::new()` picks beside a software
//! adapter (the robustness the README promises holds on the default device).

use crate::common;
use crate::common::{backends, gpu_only};

use sarek::prelude::*;
use sarek::{f16, AdapterSelector, Error, Split};

#[sarek::kernel]
fn fill_global(offset: usize, out: &mut [u32]) {
    let i = global_thread_id();
    if i < out.len() {
        out[i] = (offset + i) as u32;
    }
}

#[sarek::kernel]
fn saxpy(a: f32, x: &[f32], y: &mut [f32]) {
    let i = global_thread_id();
    if i < y.len() {
        y[i] = a * x[i] + y[i];
    }
}

#[sarek::kernel]
fn write_at_index(at: u32, value: u32, v: &mut [u32]) {
    if global_thread_id() == 0 {
        v[at as usize] = value;
    }
}

#[sarek::kernel]
fn count_to(n: u32, out: &mut [u32]) {
    if global_thread_id() == 0 {
        let mut count = 0u32;
        let mut i = 0u32;
        while i < n {
            count += 1;
            i += 1;
        }
        out[0] = count;
    }
}

/// The two devices of these tests: the test device (lavapipe here) and the CPU backend.
fn two_devices() -> Option<[Device; 2]> {
    Some([common::device()?, Device::cpu()])
}

#[gpu_only]
fn adapters_are_ranked_and_each_gpu_is_listed_once() {
    let adapters = Device::adapters();
    let rank = |t: sarek::wgpu::DeviceType| match t {
        sarek::wgpu::DeviceType::DiscreteGpu => 0,
        sarek::wgpu::DeviceType::IntegratedGpu => 1,
        sarek::wgpu::DeviceType::VirtualGpu => 2,
        sarek::wgpu::DeviceType::Other => 3,
        sarek::wgpu::DeviceType::Cpu => 4,
    };
    for pair in adapters.windows(2) {
        assert!(
            rank(pair[0].device_type) <= rank(pair[1].device_type),
            "{adapters:?}"
        );
    }
    // One physical adapter never appears through two backends.
    for (i, a) in adapters.iter().enumerate() {
        for b in &adapters[i + 1..] {
            let same = if a.device_pci_bus_id.is_empty() {
                (a.vendor, a.device, &a.name) == (b.vendor, b.device, &b.name)
            } else {
                a.device_pci_bus_id == b.device_pci_bus_id
            };
            assert!(!same || a.backend == b.backend, "{a:?} and {b:?}");
        }
    }
}

#[gpu_only]
fn with_adapter_opens_by_index_and_by_name() {
    let adapters = Device::adapters();
    if adapters.is_empty() {
        eprintln!("skipping: no adapter");
        return;
    }
    for (i, info) in adapters.iter().enumerate() {
        let by_index = Device::with_adapter(i).unwrap();
        assert_eq!(by_index.name(), info.name);
        assert_eq!(by_index.backend(), Some(info.backend));
        assert_eq!(
            by_index.is_software(),
            info.device_type == sarek::wgpu::DeviceType::Cpu
        );
    }
    let name = adapters[0].name.to_uppercase();
    let by_name = Device::with_adapter(AdapterSelector::Name(name)).unwrap();
    assert_eq!(by_name.name(), adapters[0].name);
    match Device::with_adapter(adapters.len()) {
        Err(e @ Error::NoAdapter(_)) => assert!(e.to_string().contains("at index"), "{e}"),
        other => panic!("expected NoAdapter, got {other:?}"),
    }
    assert!(matches!(
        Device::with_adapter("no adapter is called this"),
        Err(Error::NoAdapter(_))
    ));
}

#[test]
fn device_all_gives_independent_working_devices() {
    let devices = Device::all().unwrap();
    assert!(!devices.is_empty());
    for dev in &devices {
        let mut out = dev.zeros::<u32>(5).unwrap();
        fill_global
            .launch(dev, Grid::cover(5), 10, &mut out)
            .unwrap();
        assert_eq!(out.read().unwrap(), [10, 11, 12, 13, 14], "{}", dev.name());
    }
    // The CPU backend is never listed beside a GPU, and software adapters only when asked for.
    if devices.len() > 1 {
        assert!(devices.iter().all(|d| !d.is_cpu()));
    }
    if std::env::var_os("SAREK_DEVICE").is_none() && std::env::var_os("SAREK_ADAPTER").is_none() {
        assert!(devices.iter().all(|d| !d.is_software()));
    }
}

#[test]
fn copy_to_moves_data_between_devices_both_ways() {
    let Some([gpu, cpu]) = two_devices() else {
        return;
    };
    let data: Vec<Vec3> = (0..100)
        .map(|i| Vec3::new(i as f32, -(i as f32), 0.5))
        .collect();
    let a = gpu.upload(&data).unwrap();
    let b = a.copy_to(&cpu).unwrap();
    assert!(b.device().is_cpu());
    assert_eq!(b.read().unwrap(), data);
    let c = b.copy_to(&gpu).unwrap();
    assert_eq!(c.read().unwrap(), data);
    // A copy on one device is a new buffer: changing it leaves the original alone.
    let mut d = a.copy_to(&gpu).unwrap();
    d.write_at(0, &[Vec3::ZERO]).unwrap();
    assert_eq!(a.read().unwrap(), data);
    assert_eq!(d.read().unwrap()[0], Vec3::ZERO);
    let empty = gpu.zeros::<u32>(0).unwrap();
    assert!(empty.copy_to(&cpu).unwrap().is_empty());
}

#[test]
fn a_buffer_of_another_device_is_refused_until_copied() {
    let Some([gpu, cpu]) = two_devices() else {
        return;
    };
    let mut on_gpu = gpu.zeros::<u32>(4).unwrap();
    match fill_global.launch(&cpu, Grid::cover(4), 0, &mut on_gpu) {
        Err(Error::WrongDevice { param: 1, .. }) => {}
        other => panic!("expected WrongDevice, got {other:?}"),
    }
    let mut on_cpu = on_gpu.copy_to(&cpu).unwrap();
    fill_global
        .launch(&cpu, Grid::cover(4), 3, &mut on_cpu)
        .unwrap();
    assert_eq!(on_cpu.read().unwrap(), [3, 4, 5, 6]);
    // And back: the GPU refuses the CPU's buffer, takes its copy.
    assert!(matches!(
        fill_global.launch(&gpu, Grid::cover(4), 0, &mut on_cpu),
        Err(Error::WrongDevice { .. })
    ));
    let mut back = on_cpu.copy_to(&gpu).unwrap();
    fill_global
        .launch(&gpu, Grid::cover(4), 1, &mut back)
        .unwrap();
    assert_eq!(back.read().unwrap(), [1, 2, 3, 4]);
}

#[test]
fn ranges_read_and_write_part_of_a_buffer() {
    let Some(devices) = two_devices() else { return };
    for dev in &devices {
        let mut buf = dev.upload(&(0..10u32).collect::<Vec<_>>()).unwrap();
        assert_eq!(buf.read_range(3..6).unwrap(), [3, 4, 5]);
        assert_eq!(buf.read_range(10..10).unwrap(), Vec::<u32>::new());
        buf.write_at(8, &[80, 90]).unwrap();
        assert_eq!(buf.read_range(7..10).unwrap(), [7, 80, 90]);
        match buf.read_range(9..11) {
            Err(e @ Error::RangeOutOfBounds { .. }) => {
                assert_eq!(
                    e.to_string(),
                    "elements 9..11 are not inside a buffer of 10"
                )
            }
            other => panic!("expected RangeOutOfBounds, got {other:?}"),
        }
        assert!(matches!(
            buf.write_at(usize::MAX, &[1]),
            Err(Error::RangeOutOfBounds { .. })
        ));
        // Elements wider than a word.
        let mut v = dev.upload(&[Vec3::X, Vec3::Y, Vec3::Z]).unwrap();
        v.write_at(1, &[Vec3::ONE]).unwrap();
        assert_eq!(v.read_range(1..3).unwrap(), [Vec3::ONE, Vec3::Z]);
    }
}

/// Ranges of 2-byte elements that start or end inside a 4-byte word: devices move whole words,
/// so the neighbours in those words must come back as they were.
#[backends]
fn half_ranges_at_odd_positions_keep_their_neighbours(dev: &Device) {
    let h = |v: &[f32]| v.iter().map(|&x| f16::from_f32(x)).collect::<Vec<_>>();
    let mut model = h(&[1.0, 2.0, 3.0, 4.0, 5.0]);
    let mut buf = dev.upload(&model).unwrap();
    assert_eq!(buf.read_range(1..2).unwrap(), h(&[2.0]));
    assert_eq!(buf.read_range(1..4).unwrap(), h(&[2.0, 3.0, 4.0]));
    assert_eq!(buf.read_range(4..5).unwrap(), h(&[5.0]));
    for (at, data) in [
        (1, h(&[9.0])),
        (2, h(&[7.0, 8.0])),
        (3, h(&[6.0, 0.5])),
        (4, h(&[-1.0])),
    ] {
        buf.write_at(at, &data).unwrap();
        model[at..at + data.len()].copy_from_slice(&data);
        assert_eq!(buf.read().unwrap(), model, "after writing at {at}");
    }
    let mut dst = dev.upload(&h(&[0.0; 5])).unwrap();
    let mut want = h(&[0.0; 5]);
    for (from, to) in [(1..2, 0), (0..3, 1), (3..5, 3), (1..5, 0)] {
        dev.copy(&buf, from.clone(), &mut dst, to).unwrap();
        want[to..to + from.len()].copy_from_slice(&model[from.clone()]);
        assert_eq!(dst.read().unwrap(), want, "after copying {from:?} to {to}");
    }
    assert_eq!(buf.copy_to(dev).unwrap().read().unwrap(), model);
}

#[test]
fn device_copy_moves_a_range_between_buffers_and_refuses_bad_ranges() {
    let Some(devices) = two_devices() else { return };
    for dev in &devices {
        let src = dev.upload(&(0..8u32).collect::<Vec<_>>()).unwrap();
        let mut dst = dev.upload(&[100u32; 6]).unwrap();
        dev.copy(&src, 2..5, &mut dst, 1).unwrap();
        assert_eq!(dst.read().unwrap(), [100, 2, 3, 4, 100, 100]);
        // An empty range at the end of both buffers copies nothing.
        dev.copy(&src, 8..8, &mut dst, 6).unwrap();
        // Ordered between launches: the copy sees the first launch's writes, the second
        // launch sees the copy's.
        let mut a = dev.zeros::<u32>(4).unwrap();
        fill_global.launch(dev, Grid::cover(4), 10, &mut a).unwrap();
        let mut b = dev.zeros::<u32>(4).unwrap();
        dev.copy(&a, 0..4, &mut b, 0).unwrap();
        fill_global.launch(dev, Grid::cover(4), 20, &mut a).unwrap();
        write_at_index
            .launch(dev, Grid::cover(1), 3, 7, &mut b)
            .unwrap();
        assert_eq!(b.read().unwrap(), [10, 11, 12, 7]);
        assert_eq!(a.read().unwrap(), [20, 21, 22, 23]);
        // Bounds: errors with readable messages, never a panic, and `dst` unchanged.
        match dev.copy(&src, 6..9, &mut dst, 0) {
            Err(e @ Error::RangeOutOfBounds { .. }) => {
                assert_eq!(e.to_string(), "elements 6..9 are not inside a buffer of 8")
            }
            other => panic!("expected RangeOutOfBounds, got {other:?}"),
        }
        match dev.copy(&src, 0..3, &mut dst, 4) {
            Err(e @ Error::RangeOutOfBounds { .. }) => {
                assert_eq!(e.to_string(), "elements 4..7 are not inside a buffer of 6")
            }
            other => panic!("expected RangeOutOfBounds, got {other:?}"),
        }
        assert!(matches!(
            dev.copy(&src, 0..1, &mut dst, usize::MAX),
            Err(Error::RangeOutOfBounds { .. })
        ));
        #[allow(clippy::reversed_empty_ranges)]
        let backwards = 5..2;
        assert!(matches!(
            dev.copy(&src, backwards, &mut dst, 0),
            Err(Error::RangeOutOfBounds { .. })
        ));
        assert_eq!(dst.read().unwrap(), [100, 2, 3, 4, 100, 100]);
        // Elements wider than a word.
        let v = dev.upload(&[Vec3::X, Vec3::Y, Vec3::Z]).unwrap();
        let mut w = dev.zeros::<Vec3>(3).unwrap();
        dev.copy(&v, 1..3, &mut w, 0).unwrap();
        assert_eq!(w.read().unwrap(), [Vec3::Y, Vec3::Z, Vec3::ZERO]);
    }
    // A buffer of another device.
    let [gpu, cpu] = devices;
    let on_cpu = cpu.upload(&[1u32, 2]).unwrap();
    let mut on_gpu = gpu.zeros::<u32>(2).unwrap();
    match gpu.copy(&on_cpu, 0..2, &mut on_gpu, 0) {
        Err(e @ Error::ForeignBuffer("source")) => assert_eq!(
            e.to_string(),
            "the source buffer of this copy belongs to another device; move it with `Buffer::copy_to` first"
        ),
        other => panic!("expected ForeignBuffer, got {other:?}"),
    }
    let mut on_cpu = on_cpu;
    let on_gpu = on_gpu;
    assert!(matches!(
        gpu.copy(&on_gpu, 0..2, &mut on_cpu, 0),
        Err(Error::ForeignBuffer("destination"))
    ));
}

#[test]
fn split_launches_each_part_with_its_offset_and_gathers_in_order() {
    let Some(devices) = two_devices() else { return };
    let n = 10_001;
    let split = Split::new(&devices, n).unwrap();
    assert_eq!(split.parts()[0].range(), 0..5001);
    assert_eq!(split.parts()[1].range(), 5001..n);
    let mut outs = split.zeros::<u32>(1).unwrap();
    split
        .run(&mut outs, |part, out| {
            fill_global.launch(&part.device, Grid::cover(part.len), part.offset, out)?;
            Ok(())
        })
        .unwrap();
    assert_eq!(
        split.gather(&outs).unwrap(),
        (0..n as u32).collect::<Vec<_>>()
    );
}

#[test]
fn split_saxpy_over_a_gpu_and_the_cpu_backend_matches_one_device() {
    let Some(devices) = two_devices() else { return };
    let n = 50_000;
    let xs: Vec<f32> = (0..n).map(|i| (i % 1000) as f32).collect();
    let ys: Vec<f32> = (0..n).map(|i| (i % 7) as f32).collect();
    let split = Split::new(&devices, n).unwrap();
    let x = split.scatter(&xs).unwrap();
    let mut parts: Vec<_> = x.iter().zip(split.scatter(&ys).unwrap()).collect();
    split
        .run(&mut parts, |part, (x, y)| {
            saxpy.launch(&part.device, Grid::cover(part.len), 2.0, x, y)?;
            Ok(())
        })
        .unwrap();
    let ys_out: Vec<_> = parts.into_iter().map(|(_, y)| y).collect();
    let got = split.gather(&ys_out).unwrap();
    let expect: Vec<f32> = xs.iter().zip(&ys).map(|(x, y)| 2.0 * x + y).collect();
    assert_eq!(got, expect);
}

#[test]
fn split_refuses_mismatched_inputs_and_reports_a_part_error() {
    let Some(devices) = two_devices() else { return };
    assert!(Split::new(&[], 4).is_err());
    let split = Split::new(&devices, 4).unwrap();
    assert!(matches!(
        split.scatter(&[1u32, 2, 3]),
        Err(Error::LengthMismatch { len: 4, given: 3 })
    ));
    assert!(matches!(
        split.run(&mut [()], |_, _| Ok(())),
        Err(Error::LengthMismatch { len: 2, given: 1 })
    ));
    // A buffer of the wrong device in one part: that part's error comes back.
    let mut swapped = split.zeros::<u32>(1).unwrap();
    swapped.swap(0, 1);
    match split.run(&mut swapped, |part, out| {
        fill_global.launch(&part.device, Grid::cover(part.len), 0, out)?;
        Ok(())
    }) {
        Err(Error::WrongDevice { .. }) => {}
        other => panic!("expected WrongDevice, got {other:?}"),
    }
    // More devices than indices: the extra parts are empty and gathering still works.
    let tiny = Split::new(&devices, 1).unwrap();
    assert_eq!(tiny.parts()[1].len, 0);
    let mut outs = tiny.zeros::<u32>(1).unwrap();
    tiny.run(&mut outs, |part, out| {
        fill_global.launch(&part.device, Grid::cover(part.len), part.offset, out)?;
        Ok(())
    })
    .unwrap();
    assert_eq!(tiny.gather(&outs).unwrap(), [0]);
}

const CHILD: &str = "SAREK_MULTI_TEST_CHILD";

/// Runs this test again in a child process with `SAREK_DEVICE` and `SAREK_ADAPTER` unset and
/// `env` set, and returns its standard error.
fn in_child(test: &str, env: &[(&str, &str)]) -> String {
    let module = module_path!().split_once("::").map_or("", |(_, m)| m);
    let name = format!("{module}::{test}");
    let mut cmd = std::process::Command::new(std::env::current_exe().unwrap());
    cmd.args(["--exact", &name, "--nocapture"])
        .env(CHILD, "1")
        .env_remove("SAREK_DEVICE")
        .env_remove("SAREK_ADAPTER");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let output = cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "child failed: {stderr}");
    stderr
}

/// Whether the host's only adapters are software ones (lavapipe on this project's CI).
fn only_software_adapters() -> bool {
    let adapters = Device::adapters();
    !adapters.is_empty()
        && adapters
            .iter()
            .all(|a| a.device_type == sarek::wgpu::DeviceType::Cpu)
}

#[gpu_only]
fn the_default_device_drops_far_out_of_bounds_writes_and_runs_long_loops() {
    if std::env::var_os(CHILD).is_none() {
        let stderr = in_child(
            "the_default_device_drops_far_out_of_bounds_writes_and_runs_long_loops",
            // About the unchecked results: off even under SAREK_CHECKS=1.
            &[("SAREK_LOG", "warn"), ("SAREK_CHECKS", "0")],
        );
        assert!(stderr.contains("default device ok"), "{stderr}");
        if only_software_adapters() {
            assert!(stderr.contains("is a software one"), "{stderr}");
            assert!(stderr.contains("chose cpu: true"), "{stderr}");
        }
        return;
    }
    let dev = Device::new().unwrap();
    eprintln!("chose cpu: {}", dev.is_cpu());
    assert!(!dev.is_software(), "{} is a software adapter", dev.name());
    let mut small = dev.zeros::<u32>(4).unwrap();
    for at in [4u32, 1 << 30, (1 << 30) + 1, 1 << 31, u32::MAX] {
        write_at_index
            .launch(&dev, Grid::cover(1), at, 7, &mut small)
            .unwrap();
        assert_eq!(small.read().unwrap(), [0; 4], "a write at {at} landed");
    }
    let mut out = dev.zeros::<u32>(1).unwrap();
    count_to
        .launch(&dev, Grid::cover(1), 70_000, &mut out)
        .unwrap();
    assert_eq!(out.read().unwrap(), [70_000]);
    eprintln!("default device ok");
}

#[gpu_only]
fn a_software_adapter_is_used_when_asked_for_with_one_warning() {
    if std::env::var_os(CHILD).is_none() {
        if Device::adapters()
            .iter()
            .all(|a| a.device_type != sarek::wgpu::DeviceType::Cpu)
        {
            eprintln!("skipping: no software adapter");
            return;
        }
        let stderr = in_child(
            "a_software_adapter_is_used_when_asked_for_with_one_warning",
            &[("SAREK_LOG", "warn")],
        );
        assert_eq!(
            stderr.matches("is a software adapter").count(),
            1,
            "{stderr}"
        );
        assert!(stderr.contains("opened software twice"), "{stderr}");
        // `SAREK_ADAPTER` naming a software adapter makes `Device::new()` take it.
        let name = Device::adapters()
            .into_iter()
            .find(|a| a.device_type == sarek::wgpu::DeviceType::Cpu)
            .unwrap()
            .name;
        let stderr = in_child(
            "a_software_adapter_is_used_when_asked_for_with_one_warning",
            &[("SAREK_ADAPTER", &name), ("SAREK_MULTI_NEW", "1")],
        );
        assert!(stderr.contains("new chose software: true"), "{stderr}");
        return;
    }
    if sarek_codegen::toggle::enabled("SAREK_MULTI_NEW", false) {
        eprintln!(
            "new chose software: {}",
            Device::new().unwrap().is_software()
        );
        return;
    }
    let index = Device::adapters()
        .iter()
        .position(|a| a.device_type == sarek::wgpu::DeviceType::Cpu)
        .unwrap();
    let first = Device::with_adapter(index).unwrap();
    let second = Device::with_adapter(index).unwrap();
    assert!(first.is_software() && second.is_software());
    eprintln!("opened software twice");
}

#[gpu_only]
fn sarek_device_gpu_picks_a_software_adapter_where_it_is_the_only_one() {
    if std::env::var_os(CHILD).is_none() {
        if !only_software_adapters() {
            eprintln!("skipping: not a host with only software adapters");
            return;
        }
        let stderr = in_child(
            "sarek_device_gpu_picks_a_software_adapter_where_it_is_the_only_one",
            &[("SAREK_DEVICE", "gpu")],
        );
        assert!(stderr.contains("software: true, all: 1"), "{stderr}");
        return;
    }
    let dev = Device::new().unwrap();
    let all = Device::all().unwrap();
    eprintln!(
        "software: {}, all: {}",
        dev.is_software(),
        all.iter().filter(|d| d.is_software()).count()
    );
}
