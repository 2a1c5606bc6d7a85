//! The class's records as the reconciliation sees them ([`crate::kit::reconcile`]), and the
//! records with each student in two submissions kept in one under the rubric's `duplicates`
//! rule, so that the gradebook, every export and the feedback copies have one row and one page
//! per student; a submission all of whose students are kept elsewhere has no row at all.

use crate::kit::reconcile::{self, Submission};
use crate::kit::Rubric;
use crate::report::gradebook::{final_total, hand_cells};
use crate::store::Record;

/// A record's final total, if known yet (the gradebook's).
fn grade(rubric: &Rubric, record: &Record) -> Option<f64> {
    let cells = hand_cells(rubric, record.marks(), record.result.automatic_total());
    cells.total.map(|t| final_total(t, record.who.as_ref()))
}

/// Each of `records` as the reconciliation sees it: its students as the records name them
/// (the roster joined at grading), when it came, and its final total.
pub(crate) fn submissions<'a>(rubric: &Rubric, records: &'a [Record]) -> Vec<Submission<'a>> {
    records
        .iter()
        .map(|record| {
            let members = record.who.as_ref().map_or(&[][..], |w| &w.members[..]);
            Submission {
                folder: &record.student,
                named: members,
                members,
                at: record
                    .who
                    .as_ref()
                    .and_then(|w| w.submitted)
                    .map(|s| s.at.at),
                grade: grade(rubric, record),
            }
        })
        .collect()
}

/// `records` with each student in several kept in the one the rubric's rule chooses (in none
/// when it refuses), and without the records left with no student that had some.
pub(crate) fn records(rubric: &Rubric, records: &[Record]) -> Vec<Record> {
    let kept = reconcile::settle(&submissions(rubric, records), rubric.duplicates);
    records
        .iter()
        .zip(kept)
        .filter_map(|(record, members)| {
            let mut record = record.clone();
            if let Some(who) = record.who.as_mut() {
                if !who.members.is_empty() && members.is_empty() {
                    return None;
                }
                who.members = members;
            }
            Some(record)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::fixtures;
    use crate::kit::late::Moment;
    use crate::kit::reconcile::Duplicates;
    use crate::kit::roster::member;
    use crate::kit::submitted::{Source, Submitted};
    use crate::store::{Late, Who};

    #[test]
    fn a_student_in_two_submissions_keeps_one_record_and_a_group_keeps_its_others() {
        let mut rubric = fixtures::hand_rubric();
        let dara = member("1843204", "Dara Okafor", "dara@x.edu");
        let ann = member("1001", "Ann Lee", "ann@x.edu");
        let record = |folder: &str, members: Vec<_>, at: &str| {
            let who = Who {
                members,
                submitted: Some(Submitted {
                    at: Moment::parse(at).unwrap(),
                    source: Source::Gradescope,
                }),
                late: Late::NoPolicy,
            };
            let result = fixtures::student(folder, vec![], 1);
            Record::new(result, None, None, Some(who))
        };
        let class = [
            record(
                "submission_1",
                vec![ann.clone(), dara.clone()],
                "2026-11-20T10:00:00Z",
            ),
            record("submission_2", vec![dara.clone()], "2026-11-21T10:00:00Z"),
        ];
        rubric.duplicates = Duplicates::Latest;
        let settled = records(&rubric, &class);
        let who: Vec<(&str, &[_])> = settled
            .iter()
            .map(|r| (r.student.as_str(), &r.who.as_ref().unwrap().members[..]))
            .collect();
        assert_eq!(
            who,
            [
                ("submission_1", &[ann.clone()][..]),
                ("submission_2", &[dara][..])
            ]
        );
        // Refused: in neither; the submission she alone made has no row.
        rubric.duplicates = Duplicates::Refuse;
        let settled = records(&rubric, &class);
        assert_eq!(settled.len(), 1);
        assert_eq!(settled[0].who.as_ref().unwrap().members, [ann]);
    }
}
