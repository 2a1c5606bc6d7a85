//! `grade pack DIR`: the kit students get, in one folder: the `grade` binary, the rubric and the
//! published cases with their answers, and the course's copy of the supplied crate, laid out as
//! the handout shows (`DIR/grade`, `DIR/grading/`, `DIR/starter/supplied/`). Never the
//! instructor's secret seed (so never the held-out cases), nor the Gradescope configuration.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use super::files::find_kit;
use crate::kit::held_out::SECRET;
use crate::kit::{Kit, KitError};

/// What is left out of the kit's folder: the secret, and the autograder's configuration.
const LEFT_OUT: [&str; 2] = [SECRET, "gradescope"];

/// Packs the kit at `kit` (else the one found) into `out`, which must not exist or be empty.
pub fn run(kit: Option<&Path>, out: &Path) -> Result<(), KitError> {
    let dir = find_kit(kit)?;
    // Only a kit that loads is packed: what students get must work.
    Kit::load_published(&dir)?;
    let fail = |what: &Path, e: std::io::Error| KitError(format!("{}: {e}", what.display()));
    if fs::read_dir(out).is_ok_and(|mut entries| entries.next().is_some()) {
        return Err(KitError(format!(
            "{}: not empty; pack into a new folder",
            out.display()
        )));
    }
    fs::create_dir_all(out).map_err(|e| fail(out, e))?;
    let binary = std::env::current_exe().map_err(|e| fail(Path::new("grade"), e))?;
    let grade = out.join("grade");
    fs::copy(&binary, &grade).map_err(|e| fail(&grade, e))?;
    fs::set_permissions(&grade, fs::Permissions::from_mode(0o755)).map_err(|e| fail(&grade, e))?;
    copy(&dir, &out.join("grading"), &LEFT_OUT)?;
    let supplied = dir.join("../starter/supplied");
    if supplied.is_dir() {
        copy(&supplied, &out.join("starter/supplied"), &["target"])?;
    }
    eprintln!(
        "grade: packed the students' kit into {} (grade, grading/ without {SECRET}, \
         starter/supplied/)",
        out.display()
    );
    Ok(())
}

/// Copies the tree `from` to `to`, leaving out entries named in `skip` at its top.
fn copy(from: &Path, to: &Path, skip: &[&str]) -> Result<(), KitError> {
    let fail = |what: &Path, e: std::io::Error| KitError(format!("{}: {e}", what.display()));
    fs::create_dir_all(to).map_err(|e| fail(to, e))?;
    for entry in fs::read_dir(from).map_err(|e| fail(from, e))? {
        let entry = entry.map_err(|e| fail(from, e))?;
        let name = entry.file_name();
        if skip.iter().any(|s| name == *s) {
            continue;
        }
        let (source, target) = (entry.path(), to.join(&name));
        if entry.file_type().map_err(|e| fail(&source, e))?.is_dir() {
            copy(&source, &target, &[])?;
        } else {
            fs::copy(&source, &target).map_err(|e| fail(&source, e))?;
        }
    }
    Ok(())
}
