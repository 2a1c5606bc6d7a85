//! Gradescope's "Export Submissions", unzipped: a folder of one folder per submission
//! (`submission_123456/`) beside `submission_metadata.yml`, which maps each submission's id to
//! its `:submitters:` (each a `:name:`, `:sid:` and `:email:`) and its `:created_at:` time,
//! among other keys left alone (`:score:`, `:status:`, `:history:`, `:results:` ...). Read so
//! that `grade class` takes names, ids, emails and submission times from it directly. Every
//! value is the submitters' or Gradescope's text and may hold anything: it is only data here,
//! never a path.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use yaml_rust2::{Yaml, YamlLoader};

use super::late::Moment;
use super::roster::Member;
use super::KitError;

/// The metadata file's name, in the export's folder.
pub const METADATA: &str = "submission_metadata.yml";

/// One submission of the export.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Exported {
    /// Who submitted it (several for a group).
    pub submitters: Vec<Member>,
    /// When it was submitted, if the metadata says.
    pub created_at: Option<Moment>,
}

/// The export's metadata: each submission by its id, the name of its folder.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Metadata {
    /// The submissions.
    pub submissions: BTreeMap<String, Exported>,
}

/// Why the export's metadata cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExportError {
    /// It cannot be read.
    Unreadable(PathBuf, String),
    /// It is not YAML (the parser's message names the line).
    NotYaml(PathBuf, String),
    /// It is YAML, but not a mapping of submissions, or a submission's value is not what
    /// Gradescope writes (the submission, and what is wrong).
    NotMetadata(PathBuf, String),
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExportError::Unreadable(path, why) => {
                write!(f, "{}: cannot read: {why}", path.display())
            }
            ExportError::NotYaml(path, why) => write!(f, "{}: not YAML: {why}", path.display()),
            ExportError::NotMetadata(path, why) => write!(
                f,
                "{}: not Gradescope's submission metadata: {why}",
                path.display()
            ),
        }
    }
}

impl From<ExportError> for KitError {
    fn from(error: ExportError) -> Self {
        KitError(error.to_string())
    }
}

/// The metadata of the export in `dir`, if `dir` is one (it holds [`METADATA`]).
pub fn load(dir: &Path) -> Result<Option<Metadata>, ExportError> {
    let path = dir.join(METADATA);
    if !path.is_file() {
        return Ok(None);
    }
    let text = std::fs::read_to_string(&path)
        .map_err(|e| ExportError::Unreadable(path.clone(), e.to_string()))?;
    parse(&path, &text).map(Some)
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
pub fn parse(path: &Path, text: &str) -> Result<Metadata, ExportError> {
    let not = |why: String| ExportError::NotMetadata(path.to_path_buf(), why);
    let documents = YamlLoader::load_from_str(text)
        .map_err(|e| ExportError::NotYaml(path.to_path_buf(), e.to_string()))?;
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
            Exported {
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

    #[test]
    fn a_folder_without_metadata_is_no_export() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(load(dir.path()).unwrap(), None);
        std::fs::write(dir.path().join(METADATA), METADATA_TEXT).unwrap();
        assert_eq!(load(dir.path()).unwrap().unwrap().submissions.len(), 2);
    }
}
