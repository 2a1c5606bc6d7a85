//! Gradescope's "Export Submissions": a `.zip` whose root folder `assignment_<id>_export/` holds
//! one folder per submission (`submission_123456/`) beside `submission_metadata.yml`, which maps
//! each submission's id to its `:submitters:` (each a `:name:`, `:sid:` and `:email:`) and its
//! `:created_at:` time, among other keys left alone (`:score:`, `:status:`, `:history:`,
//! `:results:` ...). Found as downloaded ([`open`]: the `.zip`, extracted by [`super::archive`],
//! or the folder unzipped, at any of a few levels) and read so that `grade class` takes names,
//! ids, emails and submission times from it directly, and says which submissions and folders
//! do not match. Every value is the submitters' or Gradescope's text and may hold anything: it
//! is only data here, never a path.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use yaml_rust2::{Yaml, YamlLoader};

use super::archive::{self, ArchiveError, Extracted};
use super::late::Moment;
use super::roster::Member;

/// The metadata file's name, in the download's folder.
pub const METADATA: &str = "submission_metadata.yml";

/// How many levels of lone folders below the folder given a download folder is looked for.
const DEPTH: usize = 3;

/// One submission of the download.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Downloaded {
    /// Who submitted it (several for a group).
    pub submitters: Vec<Member>,
    /// When it was submitted, if the metadata says.
    pub created_at: Option<Moment>,
}

/// The download's metadata: each submission by its id, the name of its folder.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Metadata {
    /// The submissions.
    pub submissions: BTreeMap<String, Downloaded>,
}

/// Why the download's metadata cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MetadataError {
    /// It cannot be read.
    #[error("{}: cannot read: {}", .0.display(), .1)]
    Unreadable(PathBuf, String),
    /// It is not YAML (the parser's message names the line).
    #[error("{}: not YAML: {}; download the export again", .0.display(), .1)]
    NotYaml(PathBuf, String),
    /// It is YAML, but not a mapping of submissions, or a submission's value is not what
    /// Gradescope writes (the submission, and what is wrong).
    #[error(
        "{}: not Gradescope's submission metadata: {}; download the export again",
        .0.display(),
        .1
    )]
    NotMetadata(PathBuf, String),
}

/// The submissions `grade class` was given, as found.
#[derive(Debug)]
pub struct Submissions {
    /// The folder of one folder per submission.
    pub dir: PathBuf,
    /// The download's metadata, when it is one.
    pub metadata: Option<Metadata>,
    /// The `.zip` given, extracted for as long as this lives.
    pub archive: Option<Extracted>,
    /// Where the download was found in what was given, when below it: its path there, and how
    /// many folders the folder given (or the archive) holds beside the one it is in, not graded.
    pub inside: Option<(PathBuf, usize)>,
}

/// Why the submissions given cannot be found.
#[derive(Debug, thiserror::Error)]
pub enum FindError {
    /// The `.zip` cannot be extracted.
    #[error(transparent)]
    Archive(ArchiveError),
    /// The `.zip` holds no download.
    #[error(
        "{}: no Gradescope export in it (no {METADATA}): give grade Gradescope's \
         \"Export Submissions\" .zip as downloaded, or unzip it and give the folder",
        .0.display(),
        METADATA = METADATA
    )]
    NoDownload(PathBuf),
    /// More than one download folder in the folder given (or the archive): it, and each found.
    #[error(
        "{}: {} Gradescope exports in it: {}; give grade the one to grade",
        .0.display(),
        .1.len(),
        shown_all(.1)
    )]
    Several(PathBuf, Vec<PathBuf>),
    /// A folder named as a download has no metadata.
    #[error(
        "{}: a Gradescope export without its {METADATA}: download the export again",
        .0.display(),
        METADATA = METADATA
    )]
    NoMetadata(PathBuf),
    /// The download's metadata cannot be used.
    #[error(transparent)]
    Metadata(MetadataError),
    /// A folder of the class holds nothing but a Gradescope export, deeper than looked for or
    /// beside another: the folder, and the export.
    #[error(
        "{}: not a submission: it holds nothing but a Gradescope export, {}; give grade that \
         export (one export per run), or take the folder out of the class",
        .0.display(),
        .1.display()
    )]
    NotSubmission(PathBuf, PathBuf),
    /// The folder given holds one folder, which holds only folders: the class one level
    /// down (the folder given, and that folder).
    #[error(
        "{}: its one folder {} holds only folders: that is the class, one level down; give \
         grade {}",
        .0.display(),
        .1.display(),
        .1.display()
    )]
    OneLevelDown(PathBuf, PathBuf),
}

/// The downloads found, for [`FindError::Several`]: `a and b`.
fn shown_all(found: &[PathBuf]) -> String {
    let found: Vec<String> = found.iter().map(|p| p.display().to_string()).collect();
    found.join(" and ")
}

/// The submissions of `given`: a Gradescope download's `.zip` (extracted), a folder holding
/// [`METADATA`], a folder with one `assignment_<id>_export` folder in it or in a lone folder
/// up to [`DEPTH`] levels below (which is then graded; see [`downloads_below`]), or else a folder of plain submissions, taken as it is.
pub fn open(given: &Path) -> Result<Submissions, FindError> {
    let archive = given.is_file().then(|| archive::extract(given));
    let archive = archive.transpose().map_err(FindError::Archive)?;
    let root = archive
        .as_ref()
        .map_or_else(|| given.to_path_buf(), |a| a.path().to_path_buf());
    // As the instructor knows it: inside the archive, below its name.
    let shown = |path: &Path| given.join(path.strip_prefix(&root).unwrap_or(path));
    let dir = match root.join(METADATA).is_file() {
        true => root.clone(),
        false => {
            let mut found = Vec::new();
            downloads_below(&root, DEPTH, &mut found);
            match found.len() {
                0 => root.clone(),
                1 => found.remove(0),
                _ => {
                    let found = found.iter().map(|p| shown(p)).collect();
                    return Err(FindError::Several(given.to_path_buf(), found));
                }
            }
        }
    };
    let metadata = load(&dir).map_err(FindError::Metadata)?;
    match metadata {
        None if dir != root => return Err(FindError::NoMetadata(shown(&dir))),
        None if archive.is_some() => return Err(FindError::NoDownload(given.to_path_buf())),
        None => not_a_class(&root)?,
        _ => {}
    }
    let inside = dir
        .strip_prefix(&root)
        .ok()
        .filter(|p| !p.as_os_str().is_empty());
    let inside = inside.map(|path| {
        let beside = subfolders(&root)
            .iter()
            .filter(|f| !dir.starts_with(f) && !passed_over(f))
            .count();
        (path.to_path_buf(), beside)
    });
    Ok(Submissions {
        dir,
        metadata,
        archive,
        inside,
    })
}

/// Adds to `found` the folders named as a download in `dir`, in name order; when there are none,
/// follows lone entries down to `depth` levels: while a folder holds nothing but one folder
/// (an unzip's `-d` folder, say), that folder is the download if named as one, else is looked in.
/// Nothing else is gone into: a class's folders are its students', and a student's folder named
/// as a download, or holding one, must never be taken for the class. A link is not followed, and
/// `__MACOSX` (the resource forks a Mac adds to a zip it makes) and hidden entries
/// (`.DS_Store`) are passed over.
fn downloads_below(dir: &Path, depth: usize, found: &mut Vec<PathBuf>) {
    found.extend(subfolders(dir).into_iter().filter(|f| is_download(f)));
    let mut dir = dir.to_path_buf();
    for _ in 0..depth {
        if !found.is_empty() {
            return;
        }
        let Some(only) = lone_folder(&dir) else {
            return;
        };
        match is_download(&only) {
            true => found.push(only),
            false => dir = only,
        }
    }
}

/// Refuses a class folder `dir` that is not one: one of its folders holds nothing but a
/// Gradescope export at the end of lone folders (an export unzipped deeper than looked for,
/// or two side by side), or its one folder holds only folders (the class one level down).
/// Refused, never followed: a student's folder is the student's to fill.
fn not_a_class(dir: &Path) -> Result<(), FindError> {
    let folders: Vec<PathBuf> = (subfolders(dir).into_iter())
        .filter(|f| !passed_over(f))
        .collect();
    for folder in &folders {
        let mut inner = folder.clone();
        while !is_download(&inner) {
            let Some(only) = lone_folder(&inner) else {
                break;
            };
            inner = only;
        }
        if is_download(&inner) {
            return Err(FindError::NotSubmission(folder.clone(), inner));
        }
    }
    let only_folders = |folder: &Path| {
        let entries: Vec<fs::DirEntry> = (fs::read_dir(folder).into_iter().flatten().flatten())
            .filter(|e| !passed_over(&e.path()))
            .collect();
        !entries.is_empty()
            && entries
                .iter()
                .all(|e| e.file_type().is_ok_and(|t| t.is_dir()))
    };
    match folders.as_slice() {
        [only] if lone_folder(only).is_none() && only_folders(only) => {
            Err(FindError::OneLevelDown(dir.to_path_buf(), only.clone()))
        }
        _ => Ok(()),
    }
}

/// The one folder `dir` holds, when it holds nothing else (but what is passed over).
fn lone_folder(dir: &Path) -> Option<PathBuf> {
    let mut entries = fs::read_dir(dir)
        .ok()?
        .flatten()
        .filter(|e| !passed_over(&e.path()));
    let only = entries.next()?;
    let folder = only.file_type().is_ok_and(|t| t.is_dir());
    (folder && entries.next().is_none()).then(|| only.path())
}

/// Whether an entry is passed over in looking for a download: `__MACOSX`, or hidden.
fn passed_over(path: &Path) -> bool {
    path.file_name()
        .and_then(|name| name.to_str())
        .is_some_and(|name| name == "__MACOSX" || name.starts_with('.'))
}

/// The folders in `dir` (not links to one), in name order; none when it cannot be read.
fn subfolders(dir: &Path) -> Vec<PathBuf> {
    let mut folders: Vec<PathBuf> = fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|entry| entry.file_type().is_ok_and(|t| t.is_dir()))
        .map(|entry| entry.path())
        .collect();
    folders.sort();
    folders
}

/// Whether `folder` is named as Gradescope names a download's: `assignment_<digits>_export`. Below
/// the folder given only such a folder is taken for a download, never any folder holding
/// [`METADATA`]: a student's own folder may hold a file of that name.
fn is_download(folder: &Path) -> bool {
    folder
        .file_name()
        .and_then(|name| name.to_str())
        .and_then(|name| name.strip_prefix("assignment_")?.strip_suffix("_export"))
        .is_some_and(|id| !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()))
}

/// Where the metadata and the submission folders disagree.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Unmatched {
    /// The submissions the metadata lists with no folder: each id, and who submitted it.
    pub no_folder: Vec<(String, Vec<Member>)>,
    /// The folders the metadata does not list.
    pub not_listed: Vec<String>,
}

/// The metadata of the download in `dir`, if `dir` is one (it holds [`METADATA`]).
fn load(dir: &Path) -> Result<Option<Metadata>, MetadataError> {
    let path = dir.join(METADATA);
    if !path.is_file() {
        return Ok(None);
    }
    let text = std::fs::read_to_string(&path)
        .map_err(|e| MetadataError::Unreadable(path.clone(), e.to_string()))?;
    parse(&path, &text).map(Some)
}

impl Metadata {
    /// Where the metadata and the submission folders named `folders` disagree.
    pub fn unmatched(&self, folders: &[String]) -> Unmatched {
        Unmatched {
            no_folder: (self.submissions.iter())
                .filter(|(id, _)| !folders.contains(id))
                .map(|(id, exported)| (id.clone(), exported.submitters.clone()))
                .collect(),
            not_listed: (folders.iter())
                .filter(|folder| !self.submissions.contains_key(*folder))
                .cloned()
                .collect(),
        }
    }
}

/// The value of `mapping`'s key `name`, written as Gradescope does (`:name`) or plainly.
fn get<'a>(mapping: &'a Yaml, name: &str) -> Option<&'a Yaml> {
    let hash = mapping.as_hash()?;
    [format!(":{name}"), name.to_string()]
        .into_iter()
        .find_map(|key| hash.get(&Yaml::String(key)))
}

/// A scalar as text (an id may be written as a number); empty when it is none.
fn scalar(value: Option<&Yaml>) -> String {
    match value {
        Some(Yaml::String(text)) | Some(Yaml::Real(text)) => text.clone(),
        Some(Yaml::Integer(number)) => number.to_string(),
        Some(Yaml::Boolean(yes)) => yes.to_string(),
        _ => String::new(),
    }
}

/// Reads `text`, the metadata at `path`.
pub fn parse(path: &Path, text: &str) -> Result<Metadata, MetadataError> {
    let not = |why: String| MetadataError::NotMetadata(path.to_path_buf(), why);
    let documents = YamlLoader::load_from_str(text)
        .map_err(|e| MetadataError::NotYaml(path.to_path_buf(), e.to_string()))?;
    let Some(top) = documents.first() else {
        return Ok(Metadata::default());
    };
    let hash = top
        .as_hash()
        .ok_or_else(|| not("it is not a mapping of submission ids".into()))?;
    let mut metadata = Metadata::default();
    for (id, submission) in hash {
        let id = scalar(Some(id));
        if id.is_empty() || submission.as_hash().is_none() {
            return Err(not(format!(
                "{id:?} is not a submission id with its mapping"
            )));
        }
        let submitters = match get(submission, "submitters") {
            None | Some(Yaml::Null) => Vec::new(),
            Some(Yaml::Array(list)) => list
                .iter()
                .map(|person| Member {
                    student_id: scalar(get(person, "sid")),
                    name: scalar(get(person, "name")),
                    email: scalar(get(person, "email")),
                    login: String::new(),
                })
                .collect(),
            Some(_) => return Err(not(format!("{id:?}: :submitters: is not a list"))),
        };
        let created_at = match scalar(get(submission, "created_at")) {
            at if at.is_empty() => None,
            at => Some(Moment::parse(&at).ok_or_else(|| {
                not(format!(
                    "{id:?}: :created_at: {at:?} is not a time with its offset \
                     (2026-11-20 23:10:05.123456000 -08:00)"
                ))
            })?),
        };
        metadata.submissions.insert(
            id,
            Downloaded {
                submitters,
                created_at,
            },
        );
    }
    Ok(metadata)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Metadata as Gradescope writes it: Ruby-symbol keys, a group, keys to leave alone, and
    /// names that are not names.
    const METADATA_TEXT: &str = "\
submission_101:
  :submitters:
  - :name: \"Lee, Ann \\\"the first\\\"\"
    :sid: '1001'
    :email: ann@x.edu
  :created_at: 2026-11-20 23:10:05.123456000 -08:00
  :score: 50.0
  :status: processed
  :history: []
  :results:
    tests: []
submission_102:
  :submitters:
  - :name: =HYPERLINK(\"http://x\",\"ok\")
    :sid: 1002
    :email: bob@x.edu
  - :name: \"<script>alert(1)</script>\"
    :sid: 1003
    :email: cy@x.edu
  :created_at: '2026-11-22T10:00:00Z'
";

    #[test]
    fn gradescope_s_metadata_gives_submitters_and_times() {
        let metadata = parse(Path::new("m.yml"), METADATA_TEXT).unwrap();
        let ann = &metadata.submissions["submission_101"];
        assert_eq!(ann.submitters[0].name, "Lee, Ann \"the first\"");
        assert_eq!(ann.submitters[0].student_id, "1001");
        assert_eq!(
            ann.created_at.unwrap().to_string(),
            "2026-11-20T23:10:05-08:00"
        );
        let group = &metadata.submissions["submission_102"];
        assert_eq!(group.submitters.len(), 2);
        assert_eq!(group.submitters[0].name, "=HYPERLINK(\"http://x\",\"ok\")");
        assert_eq!(group.submitters[0].student_id, "1002");
        assert_eq!(group.submitters[1].name, "<script>alert(1)</script>");
        assert_eq!(
            group.created_at.unwrap().to_string(),
            "2026-11-22T10:00:00+00:00"
        );
    }

    #[test]
    fn what_is_not_gradescope_s_metadata_is_refused_naming_the_file() {
        let cases = [
            ("a: [1, 2\n", "m.yml: not YAML"),
            (
                "- one\n- two\n",
                "m.yml: not Gradescope's submission metadata: it is not",
            ),
            (
                "submission_1: 3\n",
                "\"submission_1\" is not a submission id",
            ),
            (
                "submission_1:\n  :submitters: 3\n",
                "\"submission_1\": :submitters: is not a list",
            ),
            (
                "submission_1:\n  :created_at: yesterday\n",
                ":created_at: \"yesterday\" is not a time",
            ),
        ];
        for (text, expected) in cases {
            let error = parse(Path::new("m.yml"), text).unwrap_err().to_string();
            assert!(error.contains(expected), "{text:?}: {error}");
        }
        assert_eq!(parse(Path::new("m.yml"), "").unwrap(), Metadata::default());
    }

    /// Makes `dir` a download of two submissions, as Gradescope lays it out.
    fn make_download(dir: &Path) {
        for id in ["submission_101", "submission_102"] {
            fs::create_dir_all(dir.join(id)).unwrap();
        }
        fs::write(dir.join(METADATA), METADATA_TEXT).unwrap();
    }

    #[test]
    fn the_download_is_found_in_the_folder_given_or_in_lone_folders_up_to_three_levels_below() {
        let work = tempfile::tempdir().unwrap();
        const EXPORT_NAME: &str = "assignment_7654321_export";
        let export = work.path().join("a/b/export").join(EXPORT_NAME);
        make_download(&export);
        fs::write(work.path().join("a/.DS_Store"), "").unwrap();
        fs::create_dir_all(work.path().join("a/b/export/__MACOSX")).unwrap();
        for (given, inside) in [
            (export.clone(), None),
            (
                work.path().join("a/b/export"),
                Some("assignment_7654321_export"),
            ),
            (
                work.path().join("a"),
                Some("b/export/assignment_7654321_export"),
            ),
        ] {
            let found = open(&given).unwrap();
            assert_eq!(found.dir, export, "{}", given.display());
            assert_eq!(found.metadata.unwrap().submissions.len(), 2);
            assert_eq!(
                found.inside,
                inside.map(|inside| (PathBuf::from(inside), 0))
            );
        }
        // Four levels down is too far to grade, and never graded as a student: refused,
        // naming it.
        let error = open(work.path()).unwrap_err();
        assert!(
            matches!(&error, FindError::NotSubmission(folder, inner)
                if *folder == work.path().join("a") && *inner == export),
            "{error:?}"
        );
        assert!(error
            .to_string()
            .contains("not a submission: it holds nothing but a Gradescope export"));
        // Beside another folder, the download is found only in the folder given, and the other
        // folder is counted.
        fs::create_dir_all(work.path().join("a/b/export/kit")).unwrap();
        let found = open(&work.path().join("a/b/export")).unwrap();
        assert_eq!(found.inside, Some((EXPORT_NAME.into(), 1)));
        let found = open(&work.path().join("a")).unwrap();
        assert_eq!(found.dir, work.path().join("a"));
        assert_eq!((found.metadata, found.inside), (None, None));
    }

    #[test]
    fn a_class_of_plain_folders_is_taken_as_it_is_whatever_a_student_s_folder_holds() {
        let class = tempfile::tempdir().unwrap();
        fs::create_dir_all(class.path().join("ann")).unwrap();
        // A student's own metadata file, a download in a student's folder, and a link to a
        // download elsewhere, are not the class's.
        fs::write(class.path().join("ann").join(METADATA), METADATA_TEXT).unwrap();
        make_download(&class.path().join("bob/assignment_1_export"));
        fs::write(class.path().join("bob/main.py"), "print()\n").unwrap();
        let elsewhere = tempfile::tempdir().unwrap();
        make_download(&elsewhere.path().join("assignment_1_export"));
        std::os::unix::fs::symlink(
            elsewhere.path().join("assignment_1_export"),
            class.path().join("assignment_2_export"),
        )
        .unwrap();
        let found = open(class.path()).unwrap();
        assert_eq!(found.dir, class.path());
        assert_eq!((found.metadata, found.inside), (None, None));
        // Nor is a class of one student whose folder holds files beside a download.
        let alone = tempfile::tempdir().unwrap();
        make_download(&alone.path().join("cy/assignment_1_export"));
        fs::write(alone.path().join("cy/main.py"), "print()\n").unwrap();
        let found = open(alone.path()).unwrap();
        assert_eq!((found.dir.as_path(), found.metadata), (alone.path(), None));
    }

    #[test]
    fn two_exports_side_by_side_or_the_class_one_level_down_are_refused_never_graded() {
        // Two unzips side by side, each in the folder unzip made.
        let work = tempfile::tempdir().unwrap();
        make_download(&work.path().join("one/assignment_1_export"));
        make_download(&work.path().join("two/assignment_2_export"));
        let error = open(work.path()).unwrap_err();
        assert!(matches!(error, FindError::NotSubmission(..)), "{error:?}");
        // A folder holding only the students' folders, given from one level up.
        let up = tempfile::tempdir().unwrap();
        for student in ["ann", "bob"] {
            fs::create_dir_all(up.path().join("class").join(student)).unwrap();
        }
        let error = open(up.path()).unwrap_err().to_string();
        let class = up.path().join("class");
        assert!(
            error.ends_with(&format!(
                "holds only folders: that is the class, one level down; give grade {}",
                class.display()
            )),
            "{error}"
        );
        // The class itself is graded.
        assert_eq!(open(&class).unwrap().dir, class);
    }

    #[test]
    fn two_downloads_or_a_download_without_metadata_are_refused_naming_them() {
        let work = tempfile::tempdir().unwrap();
        make_download(&work.path().join("assignment_1_export"));
        make_download(&work.path().join("assignment_2_export"));
        let error = open(work.path()).unwrap_err().to_string();
        let shown = work.path().display();
        assert_eq!(
            error,
            format!(
                "{shown}: 2 Gradescope exports in it: {shown}/assignment_1_export and \
                 {shown}/assignment_2_export; give grade the one to grade"
            )
        );
        fs::remove_file(work.path().join("assignment_2_export").join(METADATA)).unwrap();
        fs::remove_dir_all(work.path().join("assignment_1_export")).unwrap();
        let error = open(work.path()).unwrap_err();
        assert!(matches!(error, FindError::NoMetadata(_)), "{error:?}");
        assert!(
            error.to_string().ends_with("download the export again"),
            "{error}"
        );
    }

    /// `files` (names and contents) zipped into `path`.
    fn zipped(path: &Path, files: &[(&str, &str)]) {
        let mut writer = zip::ZipWriter::new(fs::File::create(path).unwrap());
        for (name, text) in files {
            let options = zip::write::SimpleFileOptions::default();
            writer.start_file(*name, options).unwrap();
            std::io::Write::write_all(&mut writer, text.as_bytes()).unwrap();
        }
        writer.finish().unwrap();
    }

    #[test]
    fn a_zip_is_extracted_for_as_long_as_its_submissions_live() {
        let work = tempfile::tempdir().unwrap();
        let zip = work.path().join("submissions.zip");
        zipped(
            &zip,
            &[
                ("assignment_9_export/submission_metadata.yml", METADATA_TEXT),
                ("assignment_9_export/submission_101/main.py", "print()\n"),
                ("assignment_9_export/submission_102/main.py", "print()\n"),
                ("__MACOSX/assignment_9_export/._submission_metadata.yml", ""),
            ],
        );
        let found = open(&zip).unwrap();
        let extracted = found.archive.as_ref().unwrap().path().to_path_buf();
        assert_eq!(found.dir, extracted.join("assignment_9_export"));
        assert_eq!(found.inside, Some(("assignment_9_export".into(), 0)));
        assert!(found.dir.join("submission_102/main.py").is_file());
        let folders: Vec<String> = ["submission_101", "submission_102"]
            .map(String::from)
            .into();
        assert_eq!(
            found.metadata.as_ref().unwrap().unmatched(&folders),
            Unmatched::default()
        );
        drop(found);
        assert!(!extracted.exists());

        zipped(&zip, &[("ann/main.py", "print()\n")]);
        let error = open(&zip).unwrap_err();
        assert!(matches!(error, FindError::NoDownload(_)), "{error:?}");
        zipped(
            &zip,
            &[
                ("assignment_1_export/submission_metadata.yml", METADATA_TEXT),
                ("assignment_2_export/submission_metadata.yml", METADATA_TEXT),
            ],
        );
        let error = open(&zip).unwrap_err().to_string();
        assert!(
            error.contains("submissions.zip/assignment_1_export and ")
                && error.contains("submissions.zip/assignment_2_export;"),
            "{error}"
        );
    }

    #[test]
    fn submissions_without_folders_and_folders_without_submissions_are_found() {
        let metadata = parse(Path::new("m.yml"), METADATA_TEXT).unwrap();
        let folders = ["submission_101", "submission_105"].map(String::from);
        let unmatched = metadata.unmatched(&folders);
        assert_eq!(unmatched.not_listed, ["submission_105"]);
        let (id, submitters) = &unmatched.no_folder[0];
        assert_eq!((id.as_str(), submitters.len()), ("submission_102", 2));
    }

    #[test]
    fn a_folder_without_metadata_is_no_download() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(load(dir.path()).unwrap(), None);
        std::fs::write(dir.path().join(METADATA), METADATA_TEXT).unwrap();
        assert_eq!(load(dir.path()).unwrap().unwrap().submissions.len(), 2);
    }
}
