//! The reconciliation before any grade goes out: every way the roster, the graded submissions
//! and Gradescope's metadata disagree, as typed findings ([`Finding`]) that `grade class` says
//! before grading and `grade export` before writing (worded by `report::reconcile`), each open
//! until the course says what to do with it. Also the course's rule for a student in two
//! submissions ([`Duplicates`]) and which submission keeps them under it ([`settle`]), so that
//! every file has one row and one feedback page per student.
//!
//! A student is the same across sources when an id, email or login matches as the kit compares
//! it ([`super::roster::normalised`]); a match that needed normalising is said with both
//! spellings, and the roster's goes out.

use jiff::Timestamp;

use super::roster::{normalised, Member, Roster};

/// What the course does with a student in two submissions (the rubric's `duplicates`).
#[derive(Clone, Copy, Debug, Default, serde::Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Duplicates {
    /// No grade until the instructor settles it: the student is named, in no file, and the
    /// reconciliation is open.
    #[default]
    Refuse,
    /// The submission submitted last (the later folder when no time says).
    Latest,
    /// The submission with the higher final total (then the later).
    Highest,
}

/// Why a roster student has no graded submission.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Absent {
    /// They submitted nothing anyone knows of.
    Nothing,
    /// Gradescope's metadata lists their submission (its id), and the export has no folder
    /// for it.
    NoFolder(String),
}

/// One way the sources disagree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finding {
    /// A roster student with no graded submission, and why.
    Missing(Member, Absent),
    /// A graded submission (its folder) no roster student is in, and who it names.
    Unrostered(String, Vec<Member>),
    /// A student in several submissions (their folders), and the one kept under the rule
    /// (none: refused, or to be settled by the grades).
    Twice(Member, Vec<String>, Option<String>),
    /// A submission's student matched to the roster only after normalising: the folder, the
    /// roster's spelling and the submission's.
    Respelled(String, String, String),
    /// A roster student without a submission and a submission's student not on the roster of
    /// the same name: the folder, and each as their source spells them. Never matched by name.
    Differs(String, Member, Member),
}

impl Finding {
    /// Whether a grade could still go to the wrong student or none under `rule`: open, unless
    /// `allow_missing` says to go without those who have none. A student in two submissions
    /// is settled by a rule that keeps them in one (under `highest`, once both are graded).
    pub fn open(&self, rule: Duplicates, allow_missing: bool) -> bool {
        match self {
            Finding::Respelled(..) => false,
            Finding::Twice(_, _, Some(_)) => false,
            Finding::Twice(_, _, None) => rule == Duplicates::Refuse && !allow_missing,
            Finding::Missing(..) | Finding::Unrostered(..) | Finding::Differs(..) => !allow_missing,
        }
    }
}

/// The findings, and the rule for duplicates they were found under.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reconciliation {
    /// Each, in the order: missing, not on the roster, differing, twice, respelled.
    pub findings: Vec<Finding>,
    /// The course's rule for a student in two submissions.
    pub rule: Duplicates,
}

impl Reconciliation {
    /// How many findings are open (see [`Finding::open`]).
    pub fn open(&self, allow_missing: bool) -> usize {
        (self.findings.iter())
            .filter(|f| f.open(self.rule, allow_missing))
            .count()
    }
}

/// One graded submission, as the reconciliation sees it.
#[derive(Clone, Copy, Debug)]
pub struct Submission<'a> {
    /// Its folder.
    pub folder: &'a str,
    /// Who it names itself (Gradescope's submitters), before the roster is joined.
    pub named: &'a [Member],
    /// Who it is, the roster joined.
    pub members: &'a [Member],
    /// When it was submitted, if known.
    pub at: Option<Timestamp>,
    /// Its final total, if known yet.
    pub grade: Option<f64>,
}

/// The findings of `submissions` against `roster`: `missing` are the roster's students no
/// submission has, `no_folder` the submissions Gradescope's metadata lists without a folder
/// (their ids and submitters), `rule` the course's for duplicates.
pub fn reconcile(
    roster: Option<&Roster>,
    submissions: &[Submission],
    missing: &[Member],
    no_folder: &[(String, Vec<Member>)],
    rule: Duplicates,
) -> Reconciliation {
    let on_roster = |folder: &str, member: &Member| {
        roster.is_some_and(|r| {
            (r.rows.iter()).any(|row| row.folder == folder || row.member.same(member))
        })
    };
    let mut unrostered: Vec<(String, Vec<Member>)> = match roster {
        None => Vec::new(),
        Some(_) => (submissions.iter())
            .filter(|s| !s.members.iter().any(|m| on_roster(s.folder, m)))
            .map(|s| (s.folder.to_string(), s.members.to_vec()))
            .collect(),
    };
    // Those the metadata lists without a folder, not graded elsewhere, are missing too.
    let graded = |m: &Member| {
        submissions
            .iter()
            .any(|s| s.members.iter().any(|g| g.same(m)))
    };
    let mut absent: Vec<Member> = missing.to_vec();
    for member in no_folder.iter().flat_map(|(_, submitters)| submitters) {
        if !graded(member) && !absent.iter().any(|a| a.same(member)) {
            absent.push(member.clone());
        }
    }
    let mut findings = Vec::new();
    let mut differs = Vec::new();
    absent.retain(|student| {
        let same_name = |m: &Member| !student.name.is_empty() && name_key(m) == name_key(student);
        let Some((at, theirs)) = (unrostered.iter().enumerate())
            .find_map(|(at, (_, members))| Some((at, members.iter().find(|m| same_name(m))?)))
        else {
            return true;
        };
        let folder = unrostered[at].0.clone();
        differs.push(Finding::Differs(folder, student.clone(), theirs.clone()));
        unrostered.remove(at);
        false
    });
    for student in absent {
        let why = (no_folder.iter())
            .find(|(_, submitters)| submitters.iter().any(|s| s.same(&student)))
            .map_or(Absent::Nothing, |(id, _)| Absent::NoFolder(id.clone()));
        findings.push(Finding::Missing(student, why));
    }
    findings.extend(
        unrostered
            .into_iter()
            .map(|(folder, members)| Finding::Unrostered(folder, members)),
    );
    findings.extend(differs);
    for (student, at) in twice(submissions) {
        let folders = at
            .iter()
            .map(|&i| submissions[i].folder.to_string())
            .collect();
        let kept = chosen(submissions, &at, rule).map(|i| submissions[i].folder.to_string());
        findings.push(Finding::Twice(student, folders, kept));
    }
    let rows = roster.map_or(&[][..], |r| r.rows.as_slice());
    for submission in submissions {
        for (named, row) in (submission.named.iter()).flat_map(|n| {
            rows.iter()
                .filter(|r| r.member.same(n))
                .map(move |r| (n, r))
        }) {
            findings.extend(
                respelled(&row.member, named)
                    .map(|(r, s)| Finding::Respelled(submission.folder.to_string(), r, s)),
            );
        }
    }
    Reconciliation { findings, rule }
}

/// A name as two sources may spell it: its words, in lower case.
fn name_key(member: &Member) -> Vec<String> {
    let name = member.name.to_lowercase();
    let mut words: Vec<String> = name
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .map(String::from)
        .collect();
    words.sort();
    words
}

/// The identifiers `roster` and `named` share only once normalised: each as the roster spells
/// it and as the submission does.
fn respelled(roster: &Member, named: &Member) -> Option<(String, String)> {
    [
        (&roster.student_id, &named.student_id),
        (&roster.email, &named.email),
        (&roster.login, &named.login),
    ]
    .into_iter()
    .find(|(r, n)| !r.is_empty() && r != n && normalised(r) == normalised(n))
    .map(|(r, n)| (r.clone(), n.clone()))
}

/// Each student in more than one of `submissions`, with the submissions' indices.
fn twice(submissions: &[Submission]) -> Vec<(Member, Vec<usize>)> {
    let mut students: Vec<(Member, Vec<usize>)> = Vec::new();
    for (at, submission) in submissions.iter().enumerate() {
        for member in submission.members {
            match students.iter_mut().find(|(m, _)| m.same(member)) {
                Some((_, seen)) if seen.last() == Some(&at) => {}
                Some((_, seen)) => seen.push(at),
                None => students.push((member.clone(), vec![at])),
            }
        }
    }
    students.retain(|(_, at)| at.len() > 1);
    students
}

/// Which of the submissions at `at` keeps their student under `rule`: none when refused, or
/// when the rule is the grades' and one is not known yet.
fn chosen(submissions: &[Submission], at: &[usize], rule: Duplicates) -> Option<usize> {
    // The last of the greatest: the later folder when times are equal or unknown.
    let latest = |among: &mut dyn Iterator<Item = usize>| among.max_by_key(|&i| submissions[i].at);
    match rule {
        Duplicates::Refuse => None,
        Duplicates::Latest => latest(&mut at.iter().copied()),
        Duplicates::Highest => {
            let grades: Vec<f64> = (at.iter())
                .map(|&i| submissions[i].grade)
                .collect::<Option<_>>()?;
            let best = grades.iter().copied().fold(f64::MIN, f64::max);
            let tops = at.iter().zip(&grades).filter(|(_, g)| **g == best);
            latest(&mut tops.map(|(&i, _)| i))
        }
    }
}

/// The students each of `submissions` keeps under `rule`: a student in several stays in the
/// one [`chosen`], and in none when none is (refused, or a grade not known yet).
pub fn settle(submissions: &[Submission], rule: Duplicates) -> Vec<Vec<Member>> {
    let mut kept: Vec<Vec<Member>> = submissions.iter().map(|s| s.members.to_vec()).collect();
    for (student, at) in twice(submissions) {
        let keeper = chosen(submissions, &at, rule);
        for &i in at.iter().filter(|&&i| Some(i) != keeper) {
            kept[i].retain(|m| !m.same(&student));
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::roster::member;
    use std::path::Path;

    fn at(text: &str) -> Option<Timestamp> {
        Some(text.parse().unwrap())
    }

    /// Gradescope's metadata lists each submission's users, several for a group
    /// (https://gradescope-autograders.readthedocs.io/en/latest/submission_metadata/, `users`;
    /// the export's `submission_metadata.yml` its `:submitters:`, "Exporting Submission Data" in
    /// https://guides.gradescope.com/hc/en-us/articles/22066784117901-Grading-Online-Assignments):
    /// a student added to a group after submitting alone is in two.
    #[test]
    fn a_student_in_two_submissions_is_kept_in_one_by_the_rule_and_in_none_when_refused() {
        let dara = member("1843204", "Dara Okafor", "dara@x.edu");
        let ann = member("1001", "Ann Lee", "ann@x.edu");
        let group = [ann.clone(), dara.clone()];
        let alone = [dara.clone()];
        let submissions = [
            Submission {
                folder: "submission_1",
                named: &group,
                members: &group,
                at: at("2026-11-20T10:00:00Z"),
                grade: Some(90.0),
            },
            Submission {
                folder: "submission_2",
                named: &alone,
                members: &alone,
                at: at("2026-11-21T10:00:00Z"),
                grade: Some(70.0),
            },
        ];
        let kept = |rule| settle(&submissions, rule);
        assert_eq!(
            kept(Duplicates::Latest),
            [vec![ann.clone()], vec![dara.clone()]]
        );
        assert_eq!(kept(Duplicates::Highest), [group.to_vec(), vec![]]);
        assert_eq!(kept(Duplicates::Refuse), [vec![ann.clone()], vec![]]);
        let found = reconcile(None, &submissions, &[], &[], Duplicates::Highest);
        let folders = vec!["submission_1".to_string(), "submission_2".to_string()];
        assert_eq!(
            found.findings,
            [Finding::Twice(
                dara.clone(),
                folders.clone(),
                Some("submission_1".into())
            )]
        );
        assert_eq!(found.open(false), 0);
        let refused = reconcile(None, &submissions, &[], &[], Duplicates::Refuse);
        assert_eq!(refused.findings, [Finding::Twice(dara, folders, None)]);
        assert_eq!((refused.open(false), refused.open(true)), (1, 0));
    }

    /// A Canvas gradebook export's `SIS User ID` saved through a spreadsheet loses its leading
    /// zeros (https://community.canvaslms.com/t5/Instructor-Guide/How-do-I-export-grades-in-the-Gradebook/ta-p/809);
    /// Gradescope's metadata keeps the SID as typed (`:sid: '00012345'`).
    #[test]
    fn an_id_matched_only_without_its_leading_zeros_is_said_with_both_spellings() {
        let roster = Roster::parse(
            Path::new("canvas.csv"),
            "Student,ID,SIS User ID,SIS Login ID,Section\n\
             \"    Points Possible\",,,,\n\
             \"Okafor, Dara\",41,12345,dokafor,S1\n\
             \"Lee, Ann\",42,1001,alee,S1\n",
        )
        .unwrap();
        let named = [member("00012345", "Dara Okafor", " Dara@X.edu ")];
        let joined = [member("12345", "Okafor, Dara", "dara@x.edu")];
        let stray = [member("2002", "Ann Lee", "ann@x.edu")];
        let submissions = [
            Submission {
                folder: "submission_1",
                named: &named,
                members: &joined,
                at: None,
                grade: None,
            },
            Submission {
                folder: "submission_2",
                named: &stray,
                members: &stray,
                at: None,
                grade: None,
            },
        ];
        let ann = roster.rows[1].member.clone();
        let found = reconcile(
            Some(&roster),
            &submissions,
            std::slice::from_ref(&ann),
            &[],
            Duplicates::Refuse,
        );
        assert_eq!(
            found.findings,
            [
                Finding::Differs("submission_2".into(), ann, stray[0].clone()),
                Finding::Respelled("submission_1".into(), "12345".into(), "00012345".into()),
            ]
        );
        assert_eq!(found.open(false), 1);
    }

    #[test]
    fn a_submission_listed_without_its_folder_is_missing_for_that_reason() {
        let cy = member("1003", "Cy", "cy@x.edu");
        let dee = member("1004", "Dee", "dee@x.edu");
        let no_folder = [("submission_9".to_string(), vec![cy.clone()])];
        let found = reconcile(
            None,
            &[],
            std::slice::from_ref(&dee),
            &no_folder,
            Duplicates::Refuse,
        );
        assert_eq!(
            found.findings,
            [
                Finding::Missing(dee, Absent::Nothing),
                Finding::Missing(cy, Absent::NoFolder("submission_9".into())),
            ]
        );
        assert_eq!((found.open(false), found.open(true)), (2, 0));
    }
}
