//! Parsed shader modules kept across processes: the naga `Module` that a launched entry
//! point's WGSL parses to is saved next to the pipeline cache (`disk_cache.rs`), so that the
//! next process hands wgpu the module (`ShaderSource::Naga`) instead of the text and skips the
//! WGSL parse. Measured on an H200 with the driver's compilation already cached, parsing the
//! 29 KB entry point of the register-blocked matrix product was 9.9 ms of its 11.1 ms shader
//! module, most of a second process's first launch; decoding the saved module is a fraction of
//! that (ARCHITECTURE.md has the figures). wgpu still validates a module given this way, and
//! still makes its SPIR-V, so only the parse is skipped.
//!
//! One file per entry point's text, `naga-<hash>.bin` in the pipeline cache's directory (so
//! `SAREK_CACHE_DIR`, `SAREK_CACHE=0` and `Device::set_pipeline_cache_dir` apply alike). The
//! file holds its format's key (Sarek's, naga's and the encoding's versions), the WGSL text
//! itself (so a hash collision cannot hand over another kernel's module), then the module
//! encoded with postcard and an FNV-1a checksum of it. A file that fails any check, or does
//! not decode, is ignored with a `warn` log line and rewritten; a module from a file that wgpu
//! refuses is logged and replaced by the text. Files are written atomically, as the pipeline
//! cache's are.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use super::cache_file::{fnv, write_atomically, Field, Layout};

/// The layout of a module file.
const LAYOUT: Layout = Layout {
    magic: b"SAREKNM1",
    foreign: "not a Sarek module file",
    what: "the module file",
};

/// What a module file must have been written by. naga's version is pinned exactly in the
/// workspace's Cargo.toml (its messages appear in golden files), so it is spelled here; a
/// change of naga's IR changes this key with the pin.
const KEY: &str = concat!(
    "sarek ",
    env!("CARGO_PKG_VERSION"),
    " | naga 30.0.2 | postcard 1"
);

/// Where a shader module came from, for the pipeline's log line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Origin {
    /// Decoded from a module file: no WGSL parse.
    Cached,
    /// Parsed here from the WGSL text (and saved, when a directory is given).
    Parsed,
    /// Given to wgpu as text (no cache directory's file to save, or the text did not parse
    /// here, so that wgpu reports its own error).
    Text,
}

/// The file of `wgsl`'s module under `dir`.
fn file_of(dir: &Path, wgsl: &str) -> PathBuf {
    let mut keyed = KEY.as_bytes().to_vec();
    keyed.extend_from_slice(wgsl.as_bytes());
    dir.join(format!("naga-{:016x}.bin", fnv(&keyed)))
}

/// Whether `dir` holds a module file of `wgsl`. One is written only once the entry point's
/// pipeline is compiled and the pipeline cache saved, so this says a previous process cached
/// that pipeline (tiered compilation skips the quick form then: `tiered.rs`).
pub(crate) fn saved(dir: &Path, wgsl: &str) -> bool {
    file_of(dir, wgsl).is_file()
}

/// What a module file repeats: the format's key and the WGSL text it was parsed from.
fn fields(wgsl: &str) -> [Field<'_>; 2] {
    [
        Field::short(KEY.as_bytes(), "written by another Sarek or naga version"),
        Field::long(wgsl.as_bytes(), "made from another kernel's text"),
    ]
}

/// A module file holding `data`, the encoded module of `wgsl`.
fn encode(wgsl: &str, data: &[u8]) -> Vec<u8> {
    LAYOUT.encode(&fields(wgsl), data)
}

/// The module saved for `wgsl` under `dir`, if there is a valid one; a bad file is a log line.
fn load(dir: &Path, wgsl: &str) -> Option<naga::Module> {
    let file = file_of(dir, wgsl);
    let contents = LAYOUT.read(&file, &fields(wgsl))?;
    match postcard::from_bytes::<naga::Module>(contents.data()) {
        Ok(module) => Some(module),
        Err(_) => {
            LAYOUT.ignore(&file, "its module does not decode");
            None
        }
    }
}

/// A module to save once wgpu has accepted it.
pub(crate) struct Pending {
    file: PathBuf,
    bytes: Vec<u8>,
}

impl Pending {
    /// Writes the module file; a failure is a log line (the file only saves time).
    pub(crate) fn save(self) {
        match write_atomically(&self.file, &self.bytes) {
            Ok(()) => log::debug!(
                "sarek: saved a parsed module of {} bytes to {}",
                self.bytes.len(),
                self.file.display()
            ),
            Err(e) => log::warn!(
                "sarek: could not save the module file {}: {e}",
                self.file.display()
            ),
        }
    }
}

/// A shader module [`create`] made.
pub(crate) struct Created {
    /// The module.
    pub(crate) module: wgpu::ShaderModule,
    /// Where it came from.
    pub(crate) origin: Origin,
    /// The module file to write once the pipeline is made, if any.
    pub(crate) pending: Option<Pending>,
    /// Whether it was created without index clamps.
    pub(crate) unclamped: bool,
    /// How long validating and proving it took (zero when nothing was tried).
    pub(crate) proof: std::time::Duration,
}

/// The shader module of `wgsl` on `device`: from `dir`'s module file when it holds one, else
/// parsed here (as wgpu would, with the device's capabilities) and, with `dir`, returned with
/// the file to write once the pipeline is made ([`Pending::save`]). `unclamped` names the
/// entry point to create without index clamps if the proof holds for the very module handed
/// to wgpu (`unclamped.rs`), which is then parsed here even without `dir`. Without
/// either, the text goes to wgpu unchanged.
pub(crate) fn create(
    device: &wgpu::Device,
    label: &str,
    wgsl: Cow<'static, str>,
    dir: Option<&Path>,
    unclamped: Option<&str>,
) -> Created {
    use super::unclamped::{proven, shader_module};
    let from_text = |wgsl: Cow<'static, str>| {
        shader_module(device, label, wgpu::ShaderSource::Wgsl(wgsl), false)
    };
    // The module, without clamps where the proof holds for it, and how long the proof took.
    let from_module = |module: naga::Module| {
        let started = std::time::Instant::now();
        let proven = unclamped.is_some_and(|entry| proven(device, &module, entry));
        let proof = started.elapsed();
        let made = shader_module(
            device,
            label,
            wgpu::ShaderSource::Naga(Cow::Owned(module)),
            proven,
        );
        (made, proven, proof)
    };
    let text_only = |wgsl| Created {
        module: from_text(wgsl),
        origin: Origin::Text,
        pending: None,
        unclamped: false,
        proof: std::time::Duration::ZERO,
    };
    if dir.is_none() && unclamped.is_none() {
        return text_only(wgsl);
    }
    if let Some(module) = dir.and_then(|dir| load(dir, &wgsl)) {
        // wgpu validates the module as it would a parsed one; should it refuse one that passed
        // every check above, the text decides (and the file is rewritten).
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let (made, unclamped, proof) = from_module(module);
        match pollster::block_on(scope.pop()) {
            None => {
                return Created {
                    module: made,
                    origin: Origin::Cached,
                    pending: None,
                    unclamped,
                    proof,
                }
            }
            Some(e) => log::warn!(
                "sarek: wgpu refused the cached module of `{label}` ({e}); parsing its text"
            ),
        }
    }
    // The capabilities wgpu's own parse would use: they decide which `enable` directives parse.
    let mut options = naga::front::wgsl::Options::new();
    options.capabilities = wgpu_naga_bridge::features_to_naga_capabilities(
        device.features(),
        wgpu::DownlevelFlags::empty(),
    );
    let parsed = naga::front::wgsl::Frontend::new_with_options(options).parse(&wgsl);
    let Ok(module) = parsed else {
        // wgpu parses it again and reports its error, word for word as without the cache.
        return text_only(wgsl);
    };
    let pending = dir.and_then(|dir| match postcard::to_allocvec(&module) {
        Ok(data) => Some(Pending {
            file: file_of(dir, &wgsl),
            bytes: encode(&wgsl, &data),
        }),
        Err(e) => {
            log::warn!("sarek: could not encode the module of `{label}`: {e}");
            None
        }
    });
    let (made, unclamped, proof) = from_module(module);
    Created {
        module: made,
        origin: Origin::Parsed,
        pending,
        unclamped,
        proof,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The encoded module in `bytes`, if they are a whole module file of `wgsl` in this
    /// format; otherwise why not.
    fn parse<'a>(bytes: &'a [u8], wgsl: &str) -> Result<&'a [u8], &'static str> {
        LAYOUT.parse(bytes, &fields(wgsl))
    }

    const WGSL: &str = "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n\n@compute @workgroup_size(64, 1, 1)\nfn sarek_main(@builtin(global_invocation_id) id: vec3<u32>) {\n    if id.x < arrayLength(&out) {\n        out[id.x] = id.x * 3u + 1u;\n    }\n}\n";

    #[test]
    fn modules_round_trip_through_a_file() {
        let module = naga::front::wgsl::parse_str(WGSL).unwrap();
        let data = postcard::to_allocvec(&module).unwrap();
        let file = encode(WGSL, &data);
        let back: naga::Module = postcard::from_bytes(parse(&file, WGSL).unwrap()).unwrap();
        // The decoded module validates and writes the same SPIR-V as the parsed one.
        let spirv = |m: &naga::Module| {
            let info = naga::valid::Validator::new(
                naga::valid::ValidationFlags::all(),
                naga::valid::Capabilities::empty(),
            )
            .validate(m)
            .unwrap();
            naga::back::spv::write_vec(m, &info, &naga::back::spv::Options::default(), None)
                .unwrap()
        };
        assert_eq!(spirv(&module), spirv(&back));
    }

    #[test]
    fn bad_files_are_refused() {
        let data = postcard::to_allocvec(&naga::front::wgsl::parse_str(WGSL).unwrap()).unwrap();
        let file = encode(WGSL, &data);
        assert!(parse(&file, WGSL).is_ok());
        assert_eq!(
            parse(&file, "fn other() {}"),
            Err("made from another kernel's text")
        );
        for cut in [0, 5, 12, file.len() / 2, file.len() - 1] {
            assert!(parse(&file[..cut], WGSL).is_err(), "cut at {cut}");
        }
        let mut flipped = file.clone();
        *flipped.last_mut().unwrap() ^= 1;
        assert_eq!(
            parse(&flipped, WGSL),
            Err("corrupt (its checksum does not match)")
        );
        let mut foreign = file.clone();
        foreign[14] ^= 1; // inside the key
        assert_eq!(
            parse(&foreign, WGSL),
            Err("written by another Sarek or naga version")
        );
        assert!(parse(b"SAREKPC1", WGSL).is_err());
    }

    #[test]
    fn a_bad_file_loads_nothing() {
        let dir = std::env::temp_dir().join(format!("sarek-module-cache-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = file_of(&dir, WGSL);
        assert!(load(&dir, WGSL).is_none(), "no file yet");
        // A whole file whose checksum matches but whose data is not a module.
        std::fs::write(&file, encode(WGSL, b"\xff\xff\xff\xff not postcard")).unwrap();
        assert!(load(&dir, WGSL).is_none());
        let data = postcard::to_allocvec(&naga::front::wgsl::parse_str(WGSL).unwrap()).unwrap();
        write_atomically(&file, &encode(WGSL, &data)).unwrap();
        assert!(load(&dir, WGSL).is_some());
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A kernel whose index `t & 3u` the proof bounds; with the mask changed to `63u` in the
    /// module (not the text), it reads past the workgroup array.
    const MASKED: &str = "@group(0) @binding(0) var<storage, read_write> out: array<u32>;
var<workgroup> s: array<u32, 4>;
@compute @workgroup_size(64) fn sarek_main(@builtin(local_invocation_index) t: u32) {
    if t < 4u { s[t] = 10u * (t + 1u); }
    workgroupBarrier();
    if t < arrayLength(&out) { out[t] = s[t & 3u]; }
}
";

    /// The test's wgpu device: none (said on stderr) without a GPU, a failure then when
    /// `SAREK_REQUIRE_GPU=1`.
    fn gpu() -> Option<crate::Device> {
        match crate::Device::gpu() {
            Ok(dev) => Some(dev),
            Err(e) if sarek_ir::toggle::enabled("SAREK_REQUIRE_GPU", false) => {
                panic!("SAREK_REQUIRE_GPU=1 but no GPU device: {e}")
            }
            Err(e) => {
                eprintln!("skipping a wgpu test: no GPU device ({e})");
                None
            }
        }
    }

    #[test]
    fn an_edited_module_file_keeps_its_clamps() {
        let Some(dev) = gpu() else { return };
        let device = &dev.inner().device;
        let dir = std::env::temp_dir().join(format!("sarek-edited-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let honest = naga::front::wgsl::parse_str(MASKED).unwrap();
        let save = |module: &naga::Module| {
            let data = postcard::to_allocvec(module).unwrap();
            write_atomically(&file_of(&dir, MASKED), &encode(MASKED, &data)).unwrap();
        };
        save(&honest);
        let created = create(
            device,
            "masked",
            MASKED.into(),
            Some(&dir),
            Some("sarek_main"),
        );
        assert_eq!(created.origin, Origin::Cached);
        // Proven on the module read back, where the device drops clamps at all.
        assert_eq!(created.unclamped, dev.drops_proven_clamps());
        // The same file with one literal changed, its checksum made to match.
        let mut edited = honest.clone();
        let function = &mut edited.entry_points[0].function;
        let mask = function
            .expressions
            .iter()
            .find(|(_, e)| matches!(e, naga::Expression::Literal(naga::Literal::U32(3))))
            .map(|(h, _)| h)
            .unwrap();
        function.expressions[mask] = naga::Expression::Literal(naga::Literal::U32(63));
        save(&edited);
        let created = create(
            device,
            "masked",
            MASKED.into(),
            Some(&dir),
            Some("sarek_main"),
        );
        assert_eq!(created.origin, Origin::Cached, "the edited file was used");
        assert!(
            !created.unclamped,
            "an edited module ran without its clamps"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The module of [`MASKED`] with its guard `t < 4u` and mask `t & 3u` replaced.
    fn masked_with(guard: u32, mask: u32) -> naga::Module {
        let mut module = naga::front::wgsl::parse_str(MASKED).unwrap();
        let function = &mut module.entry_points[0].function;
        let mut replaced = 0;
        for (_, e) in function.expressions.iter_mut() {
            if let naga::Expression::Literal(naga::Literal::U32(v)) = e {
                match *v {
                    4 => *v = guard,
                    3 => *v = mask,
                    _ => continue,
                }
                replaced += 1;
            }
        }
        assert_eq!(
            replaced, 2,
            "the guard and the mask are literals of their own"
        );
        module
    }

    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// An edited module is proven in bounds only when it is: every index of every
        /// invocation (`t` below 64) within the array of four, found by trying them all.
        #[test]
        fn edited_literals_are_proven_only_when_in_bounds(
            guard in prop_oneof![0u32..80, any::<u32>()],
            mask in prop_oneof![0u32..80, any::<u32>()],
        ) {
            let module = masked_with(guard, mask);
            let proven = crate::backend::wgpu::unclamped::proven_with(
                naga::valid::Capabilities::default(),
                &module,
                "sarek_main",
            );
            let in_bounds = (0..64u32).all(|t| (t >= guard || t < 4) && (t & mask) < 4);
            prop_assert!(!proven || in_bounds, "guard {} mask {}", guard, mask);
        }

        /// A module file whose bytes were changed (its checksum made to match) is refused,
        /// decodes to a module the proof refuses, or is proven; nothing panics or hangs.
        #[test]
        fn corrupt_module_files_never_crash(
            flips in proptest::collection::vec((any::<usize>(), 1u8..=255), 1..6),
        ) {
            let dir = std::env::temp_dir().join(format!(
                "sarek-corrupt-{}-{:?}",
                std::process::id(),
                std::thread::current().id()
            ));
            let honest = naga::front::wgsl::parse_str(MASKED).unwrap();
            let mut data = postcard::to_allocvec(&honest).unwrap();
            for (at, bits) in flips {
                let n = data.len();
                data[at % n] ^= bits;
            }
            write_atomically(&file_of(&dir, MASKED), &encode(MASKED, &data)).unwrap();
            if let Some(module) = load(&dir, MASKED) {
                let _ = crate::backend::wgpu::unclamped::proven_with(
                    naga::valid::Capabilities::default(),
                    &module,
                    "sarek_main",
                );
            }
            let _ = std::fs::remove_dir_all(&dir);
        }
    }

    #[test]
    fn the_honest_masked_module_is_proven() {
        let proven = |guard, mask| {
            crate::backend::wgpu::unclamped::proven_with(
                naga::valid::Capabilities::default(),
                &masked_with(guard, mask),
                "sarek_main",
            )
        };
        assert!(proven(4, 3));
        assert!(!proven(5, 3));
        assert!(!proven(4, 4));
    }
}
