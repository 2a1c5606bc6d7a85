//! The reconciliation's words: one table of every way the roster, the graded submissions and
//! Gradescope's metadata disagree ([`crate::kit::reconcile`]), each row what was found, who,
//! where, what happens to their grade and whether it is still open, as `grade class` says it
//! before grading (and in the class summary) and `grade export` before its files. Every name and
//! identifier is the students' or a platform's text: made inert, `|` escaped.

use super::inert;
use crate::kit::reconcile::{Absent, Duplicates, Finding, Reconciliation};
use crate::kit::roster::Member;

/// The table's title, as the class summary heads its section.
pub const TITLE: &str = "Reconciliation: roster, submissions and export";

/// The rule's value as the rubric writes it.
fn rule_word(rule: Duplicates) -> &'static str {
    match rule {
        Duplicates::Refuse => "refuse",
        Duplicates::Latest => "latest",
        Duplicates::Highest => "highest",
    }
}

/// A table cell of `text`: inert, its `|` escaped.
fn cell(text: &str) -> String {
    inert::line(text).replace('|', "\\|")
}

/// A student as a row names them: name, id, email, login, whichever are known.
fn person(member: &Member) -> String {
    let known: Vec<&str> = [
        &member.name,
        &member.student_id,
        &member.email,
        &member.login,
    ]
    .into_iter()
    .filter(|part| !part.is_empty())
    .map(String::as_str)
    .collect();
    match known.is_empty() {
        true => "no one named".into(),
        false => known.join(" "),
    }
}

/// One finding's cells: what, who, where, and what happens or what to do.
fn cells(finding: &Finding, rule: Duplicates) -> [String; 4] {
    match finding {
        Finding::Missing(student, Absent::Nothing) => [
            "on the roster, no submission".into(),
            person(student),
            String::new(),
            "missing: the rubric's missing grade (missing = \"zero\": 0, else none)".into(),
        ],
        Finding::Missing(student, Absent::NoFolder(id)) => [
            "submission not in the export".into(),
            person(student),
            id.clone(),
            "Gradescope lists this submission but the export has no folder for it: download \
             the export again; not graded, no grade goes out"
                .into(),
        ],
        Finding::Unrostered(folder, members) => {
            let named: Vec<String> = members.iter().map(person).collect();
            [
                "graded, no roster student".into(),
                match named.is_empty() {
                    true => "no one named".into(),
                    false => named.join("; "),
                },
                folder.clone(),
                "its grade reaches no one: add the student to the roster, or correct their id, \
                 email or login in it"
                    .into(),
            ]
        }
        Finding::Differs(folder, roster, submitted) => [
            "same name, identifiers differ".into(),
            format!(
                "roster: {}; submission: {}",
                person(roster),
                person(submitted)
            ),
            folder.clone(),
            "not matched (never by name alone): correct the roster or the submission's \
             identifier"
                .into(),
        ],
        Finding::Twice(student, folders, kept) => [
            format!("in {} submissions", folders.len()),
            person(student),
            folders.join(", "),
            match (kept, rule) {
                (Some(kept), _) => format!(
                    "graded from {kept} alone (duplicates = \"{}\")",
                    rule_word(rule)
                ),
                (None, Duplicates::Highest) => {
                    "graded from the submission graded higher, once both are graded \
                     (duplicates = \"highest\")"
                        .into()
                }
                (None, _) => "no grade: set duplicates = \"latest\" or \"highest\" in \
                              rubric.toml, or take them out of one submission"
                    .into(),
            },
        ],
        Finding::Respelled(folder, roster, submitted) => [
            "matched after normalising".into(),
            format!("roster: {roster}; submission: {submitted}"),
            folder.clone(),
            format!("the roster's {roster} goes out"),
        ],
    }
}

/// The table of `reconciliation`, each row open or settled (with `allow_missing`, the missing
/// are settled); empty when nothing disagrees.
pub fn table(reconciliation: &Reconciliation, allow_missing: bool) -> String {
    if reconciliation.findings.is_empty() {
        return String::new();
    }
    let mut out = String::from("| found | student | submission | grade | status |\n");
    out.push_str("|---|---|---|---|---|\n");
    for finding in &reconciliation.findings {
        let [what, who, folder, grade] = cells(finding, reconciliation.rule);
        let status = match finding.open(reconciliation.rule, allow_missing) {
            true => "open",
            false => "settled",
        };
        let row = [what, who, folder, grade]
            .map(|text| cell(&text))
            .join(" | ");
        out.push_str(&format!("| {row} | {status} |\n"));
    }
    out
}

/// The class summary's section of `reconciliation` ([`table`]); empty when nothing disagrees.
pub fn section(reconciliation: &Reconciliation, allow_missing: bool) -> String {
    match table(reconciliation, allow_missing) {
        table if table.is_empty() => table,
        table => format!("\n## {TITLE}\n\n{table}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::roster::member;

    #[test]
    fn each_finding_is_a_row_saying_what_happens_and_whether_it_is_open() {
        let dara = member("1843204", "Dara | Okafor", "dara@x.edu");
        let reconciliation = Reconciliation {
            findings: vec![
                Finding::Missing(member("7", "Dee", ""), Absent::Nothing),
                Finding::Missing(
                    member("8", "Cy", ""),
                    Absent::NoFolder("submission_9".into()),
                ),
                Finding::Unrostered("submission_5".into(), vec![member("", "=Eve", "")]),
                Finding::Differs(
                    "submission_6".into(),
                    member("1001", "Ann Lee", ""),
                    member("2002", "Lee, Ann", ""),
                ),
                Finding::Twice(
                    dara,
                    vec!["submission_1".into(), "submission_2".into()],
                    None,
                ),
                Finding::Respelled("submission_3".into(), "12345".into(), "00012345".into()),
            ],
            rule: Duplicates::Refuse,
        };
        insta::assert_snapshot!("reconciliation", table(&reconciliation, false));
        let allowed = table(&reconciliation, true);
        assert!(!allowed.contains("| open |"), "{allowed}");
        assert_eq!(table(&Reconciliation::default(), false), "");
    }
}
