//! The compiler's stages import only earlier stages: a module of `src/<stage>` may name
//! `crate::<other>` only for a stage before its own (tests excepted). The crates' direction is
//! Cargo's to enforce; this checks the order inside the compiler.

use std::path::Path;

/// The compiler's modules in dependency order; the macro's driver (`front/expand*.rs`, which
/// runs every stage) and the crate root sit above them all.
const STAGES: &[&str] = &[
    // The ground floor (`sarek-ir`) and naga's stage (`sarek-proof`), re-exported.
    "arena",
    "ir",
    "layout",
    "abi",
    "features",
    "toggle",
    "in_bounds",
    "valid",
    // WebGPU's rules over the IR (the front end consults them on attributes).
    "check",
    // Rust syntax to the IR.
    "front",
    // IR to IR.
    "passes",
    // IR to WGSL, and the ABI with the WGSL module's names.
    "wgsl",
];

fn rank(module: &str) -> Option<usize> {
    STAGES.iter().position(|s| *s == module)
}

/// `crate::x` paths named in the code of `text`, outside comments and `#[cfg(test)]` modules.
fn imports(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut in_tests = false;
    let mut lines = text.lines().enumerate().peekable();
    while let Some((n, line)) = lines.next() {
        let code = line.trim_start();
        if code.starts_with("#[cfg(test)]") || code.starts_with("#[cfg(all(test") {
            if lines
                .peek()
                .is_some_and(|(_, l)| l.trim_start().starts_with("mod "))
            {
                in_tests = true;
            }
            continue;
        }
        if in_tests || code.starts_with("//") {
            continue;
        }
        let code = code.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            let name: String = rest[at + 7..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            found.push((n + 1, name));
            rest = &rest[at + 7..];
        }
    }
    found
}

fn visit(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("the source folder reads") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            visit(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

#[test]
fn stages_import_only_earlier_stages() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    visit(&src, &mut files);
    let mut wrong = Vec::new();
    let mut checked = 0;
    for file in &files {
        let rel = file.strip_prefix(&src).expect("under src");
        let top = rel
            .components()
            .next()
            .and_then(|c| c.as_os_str().to_str())
            .expect("a path")
            .trim_end_matches(".rs")
            .to_string();
        let name = rel.file_name().and_then(|f| f.to_str()).unwrap_or("");
        let is_driver = top == "lib" || (top == "front" && name.starts_with("expand"));
        if is_driver
            || name.starts_with("tests")
            || rel.components().any(|c| c.as_os_str() == "tests")
        {
            continue;
        }
        let own = rank(&top).unwrap_or_else(|| panic!("{top} is not in STAGES: place it"));
        let text = std::fs::read_to_string(file).expect("a source file reads");
        for (line, used) in imports(&text) {
            checked += 1;
            match rank(&used) {
                Some(r) if r <= own => {}
                Some(_) => wrong.push(format!(
                    "{}:{line}: {top} imports the later stage {used}",
                    rel.display()
                )),
                // Items of the crate root: only the driver and later stages may use them.
                None => wrong.push(format!(
                    "{}:{line}: {top} imports `crate::{used}` of the crate root",
                    rel.display()
                )),
            }
        }
    }
    assert!(
        checked > 100,
        "the scan found only {checked} imports: it reads nothing"
    );
    assert!(
        wrong.is_empty(),
        "imports against the stage order:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_scan_sees_a_later_stage() {
    let text = "use crate::ir::Kernel;\n// crate::wgsl in a comment\nfn f() { crate::wgsl::x(); }\n#[cfg(test)]\nmod tests {\n use crate::front::y;\n}\n";
    let found: Vec<String> = imports(text).into_iter().map(|(_, n)| n).collect();
    assert_eq!(found, ["ir", "wgsl"]);
}
