//! The results: printed, and written as JSON, Markdown and an SVG chart of the ratios.

use std::path::Path;
use std::time::Duration;

use plotters::prelude::*;
use serde::Serialize;

use crate::measure::{Measured, Work};

/// One kernel at one size.
#[derive(Serialize)]
pub struct Row {
    pub kernel: String,
    pub size: String,
    pub unit: String,
    pub sarek_us: f64,
    pub wgsl_us: f64,
    pub wgsl_vec4_us: Option<f64>,
    pub sarek_rate: f64,
    pub wgsl_rate: f64,
    pub wgsl_vec4_rate: Option<f64>,
    /// Hand-written time / Sarek time: above 1 means Sarek is faster.
    pub ratio: f64,
    /// Sarek's bandwidth over the vec4 copy's, for memory-bound kernels.
    pub fraction_of_copy: Option<f64>,
    /// The hand-written twin's bandwidth over the vec4 copy's, for memory-bound kernels.
    pub wgsl_fraction_of_copy: Option<f64>,
    pub verified: bool,
    pub first_launch_ms: f64,
}

impl Row {
    /// The row of `kernel` for what was measured at one size; `copy_gbps` is the copy
    /// kernel's bandwidth, which memory-bound kernels are compared with.
    pub fn new(kernel: &str, m: &Measured, copy_gbps: f64) -> Row {
        let us = |d: Duration| d.as_secs_f64() * 1e6;
        Row {
            kernel: kernel.into(),
            size: m.size.clone(),
            unit: m.work.unit().into(),
            sarek_us: us(m.sarek),
            wgsl_us: us(m.wgsl),
            wgsl_vec4_us: m.wgsl_vec4.map(us),
            sarek_rate: m.work.rate(m.sarek),
            wgsl_rate: m.work.rate(m.wgsl),
            wgsl_vec4_rate: m.wgsl_vec4.map(|d| m.work.rate(d)),
            ratio: if m.wgsl.is_zero() {
                f64::NAN
            } else {
                m.wgsl.as_secs_f64() / m.sarek.as_secs_f64()
            },
            fraction_of_copy: matches!(m.work, Work::Bytes(_))
                .then(|| m.work.rate(m.sarek) / copy_gbps),
            wgsl_fraction_of_copy: matches!(m.work, Work::Bytes(_))
                .then(|| m.work.rate(m.wgsl) / copy_gbps),
            verified: m.verified,
            first_launch_ms: m.first_launch.as_secs_f64() * 1e3,
        }
    }

    /// The row as the suite prints it while it runs.
    pub fn print(&self) {
        println!(
            "{:<15} {:<14} sarek {:>10.1} µs {:>9.1} {}   wgsl {:>10.1} µs   ratio {}{}{}{}",
            self.kernel,
            self.size,
            self.sarek_us,
            self.sarek_rate,
            self.unit,
            self.wgsl_us,
            ratio(self.ratio),
            self.wgsl_vec4_us
                .map(|v| format!("   wgsl vec4 {v:.1} µs"))
                .unwrap_or_default(),
            self.fraction_of_copy
                .map(|_| format!(
                    "   of copy {} (twin {})",
                    percent(self.fraction_of_copy),
                    percent(self.wgsl_fraction_of_copy)
                ))
                .unwrap_or_default(),
            if self.verified { "" } else { "   WRONG RESULT" },
        );
    }
}

/// A time ratio as the table prints it (`–` for a row without a twin).
fn ratio(r: f64) -> String {
    if r.is_nan() {
        "–".into()
    } else {
        format!("{r:.3}")
    }
}

/// A share of the copy bandwidth as the table prints it (`–` for compute-bound kernels).
fn percent(share: Option<f64>) -> String {
    share.map_or_else(|| "–".into(), |f| format!("{:.0}%", f * 100.0))
}

/// CPU cost per launch.
#[derive(Serialize)]
pub struct CpuCost {
    pub launches: u32,
    pub sarek_us: f64,
    pub wgpu_us: f64,
    pub batch_us: f64,
    pub verified: bool,
}

#[derive(Serialize)]
pub struct Report {
    pub device: String,
    pub backend: String,
    pub timing: String,
    pub quick: bool,
    pub command: String,
    pub versions: String,
    pub copy_gbps: f64,
    pub rows: Vec<Row>,
    pub cpu: Option<CpuCost>,
}

impl Report {
    pub fn new(dev: &sarek::Device, timestamps: bool, quick: bool) -> Report {
        Report {
            device: dev.name(),
            backend: format!("{:?}", dev.backend().unwrap_or(sarek::wgpu::Backend::Noop)),
            timing: if timestamps {
                "GPU timestamp queries".into()
            } else {
                "wall clock (no timestamp queries)".into()
            },
            quick,
            command: std::env::args().collect::<Vec<_>>().join(" "),
            versions: format!("sarek {}, wgpu 30, naga 30.0.2", env!("CARGO_PKG_VERSION")),
            copy_gbps: 0.0,
            rows: Vec::new(),
            cpu: None,
        }
    }

    pub fn write(&self, dir: &Path) -> Result<(), Box<dyn std::error::Error>> {
        std::fs::create_dir_all(dir)?;
        std::fs::write(
            dir.join("results.json"),
            serde_json::to_string_pretty(self)?,
        )?;
        std::fs::write(dir.join("results.md"), self.markdown())?;
        self.chart(&dir.join("ratios.svg"))?;
        Ok(())
    }

    pub fn markdown(&self) -> String {
        let mut md = format!(
            "Device: **{}** ({}), timing: {}, median of the runs after warm-up.\n\
             Bandwidth limit measured in the same run by a vec4 copy kernel: **{:.1} GB/s**.\n\n\
             | kernel | size | Sarek µs | WGSL µs | WGSL vec4 µs | Sarek rate | WGSL rate | WGSL / Sarek time | of copy bandwidth | twin of copy | first launch ms | checked |\n\
             |---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n",
            self.device, self.backend, self.timing, self.copy_gbps
        );
        for r in &self.rows {
            md += &format!(
                "| {} | {} | {:.1} | {:.1} | {} | {:.1} {} | {:.1} {} | {} | {} | {} | {:.1} | {} |\n",
                r.kernel,
                r.size,
                r.sarek_us,
                r.wgsl_us,
                r.wgsl_vec4_us.map(|v| format!("{v:.1}")).unwrap_or_else(|| "–".into()),
                r.sarek_rate,
                r.unit,
                r.wgsl_rate,
                r.unit,
                ratio(r.ratio),
                percent(r.fraction_of_copy),
                percent(r.wgsl_fraction_of_copy),
                r.first_launch_ms,
                if r.verified { "yes" } else { "**WRONG**" },
            );
        }
        if let Some(c) = &self.cpu {
            md += &format!(
                "\nCPU cost per launch ({} small launches, wall clock): Sarek **{:.2} µs**, raw wgpu (pipeline and bind group reused) **{:.2} µs**, ratio {:.2}; {} launches in one `Batch` (one submission): **{:.2} µs** each.\n",
                c.launches,
                c.sarek_us,
                c.wgpu_us,
                c.sarek_us / c.wgpu_us,
                c.launches,
                c.batch_us
            );
        }
        md
    }

    fn chart(&self, path: &Path) -> Result<(), Box<dyn std::error::Error>> {
        // Rows without a twin have no ratio to draw.
        let rows: Vec<&Row> = self.rows.iter().filter(|r| !r.ratio.is_nan()).collect();
        let labels: Vec<String> = rows
            .iter()
            .map(|r| format!("{} {}", r.kernel, r.size))
            .collect();
        let max = rows.iter().map(|r| r.ratio).fold(1.2f64, f64::max) * 1.1;
        let root = SVGBackend::new(path, (900, 120 + 40 * labels.len() as u32)).into_drawing_area();
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                format!(
                    "Sarek vs hand-written WGSL on {} (time ratio; >1: Sarek faster)",
                    self.device
                ),
                ("sans-serif", 18),
            )
            .margin(15)
            .x_label_area_size(35)
            .y_label_area_size(170)
            .build_cartesian_2d(0f64..max, (0..labels.len()).into_segmented())?;
        chart
            .configure_mesh()
            .y_labels(labels.len())
            .y_label_formatter(&|v| match v {
                SegmentValue::CenterOf(i) => labels.get(*i).cloned().unwrap_or_default(),
                _ => String::new(),
            })
            .x_desc("hand-written time / Sarek time")
            .draw()?;
        chart.draw_series(rows.iter().enumerate().map(|(i, r)| {
            let color = if r.ratio >= 0.98 {
                GREEN.mix(0.7)
            } else {
                RED.mix(0.7)
            };
            Rectangle::new(
                [
                    (0.0, SegmentValue::Exact(i)),
                    (r.ratio, SegmentValue::Exact(i + 1)),
                ],
                color.filled(),
            )
        }))?;
        chart.draw_series(std::iter::once(PathElement::new(
            vec![
                (1.0, SegmentValue::Exact(0)),
                (1.0, SegmentValue::Exact(labels.len())),
            ],
            BLACK.stroke_width(2),
        )))?;
        root.present()?;
        Ok(())
    }
}
