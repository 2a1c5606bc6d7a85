//! Lateness: the rubric's optional `[late]` table (a due date, a penalty per day or hour
//! started late, a cap, a grace period), the times it is read with (RFC 3339, and the
//! `2026-11-20 23:10:05.123456000 -08:00` of Gradescope's metadata), a student's extension
//! (hours more, or a due date of their own), and the pure function that tells how late a
//! submission is and what it costs. Nothing here reads a clock or a file.

use std::fmt;

use jiff::fmt::strtime;
use jiff::tz::Offset;
use jiff::{SignedDuration, Timestamp};
use serde::{Deserialize, Deserializer};

/// A moment as it was written: the instant, and the offset it was written with (so that it is
/// shown as the instructor or Gradescope wrote it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Moment {
    /// The instant.
    pub at: Timestamp,
    /// The offset from UTC it was written with.
    pub offset: Offset,
}

impl Moment {
    /// The moment `text` says: RFC 3339 (`2026-11-20T23:59:00-08:00`, `...Z`) or Gradescope's
    /// `2026-11-20 23:10:05.123456000 -08:00`; an offset is required, a fraction of a second
    /// optional.
    pub fn parse(text: &str) -> Option<Moment> {
        const FORMATS: [&str; 3] = [
            "%Y-%m-%dT%H:%M:%S%.f%:z",
            "%Y-%m-%d %H:%M:%S%.f %:z",
            "%Y-%m-%d %H:%M:%S%.f%:z",
        ];
        let text = text.trim();
        let text = match text.strip_suffix(['Z', 'z']) {
            Some(utc) => format!("{utc}+00:00"),
            None => text.to_string(),
        };
        FORMATS.iter().find_map(|format| {
            let parsed = strtime::parse(format, &text).ok()?;
            Some(Moment {
                at: parsed.to_timestamp().ok()?,
                offset: parsed.offset()?,
            })
        })
    }

    /// The moment `at` written in UTC.
    pub fn utc(at: Timestamp) -> Moment {
        Moment {
            at,
            offset: Offset::UTC,
        }
    }

    /// The same instant written with `offset`.
    pub fn with_offset(self, offset: Offset) -> Moment {
        Moment { offset, ..self }
    }
}

impl fmt::Display for Moment {
    /// RFC 3339 to the second, in its own offset: `2026-11-20T23:10:05-08:00`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let second = Timestamp::from_second(self.at.as_second()).unwrap_or(self.at);
        write!(f, "{}", second.display_with_offset(self.offset))
    }
}

impl<'de> Deserialize<'de> for Moment {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Moment, D::Error> {
        let text = String::deserialize(deserializer)?;
        Moment::parse(&text).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "{text:?} is not a date-time with its offset, as RFC 3339 writes one: \
                 2026-11-20T23:59:00-08:00"
            ))
        })
    }
}

/// What a period of lateness is.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Per {
    /// Each day (24 hours) started late.
    Day,
    /// Each hour started late.
    Hour,
}

impl Per {
    /// Its length.
    fn length(self) -> SignedDuration {
        match self {
            Per::Day => SignedDuration::from_hours(24),
            Per::Hour => SignedDuration::from_hours(1),
        }
    }
}

/// The rubric's `[late]` table: the late policy.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct LatePolicy {
    /// When the assignment is due, with its offset.
    pub due: Moment,
    /// The percent of the assignment's points taken off per period started late.
    pub penalty: f64,
    /// What a period is.
    pub per: Per,
    /// The percent taken off at most (default 100).
    #[serde(default = "whole")]
    pub cap: f64,
    /// Minutes after the due date (a student's own included) still counted on time.
    #[serde(default)]
    pub grace_minutes: u32,
}

/// The default cap: the whole of the points.
fn whole() -> f64 {
    100.0
}

/// What is wrong with the `[late]` table.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum InvalidLate {
    /// The penalty is no percent.
    #[error("late: penalty is a percent of the points, 0 to 100, not {0}")]
    Penalty(f64),
    /// The cap is no percent.
    #[error("late: cap is a percent of the points, 0 to 100, not {0}")]
    Cap(f64),
}

impl LatePolicy {
    /// Why the policy cannot be used, if it cannot.
    pub fn validate(&self) -> Result<(), InvalidLate> {
        let percent = |x: f64| x.is_finite() && (0.0..=100.0).contains(&x);
        if !percent(self.penalty) {
            return Err(InvalidLate::Penalty(self.penalty));
        }
        if !percent(self.cap) {
            return Err(InvalidLate::Cap(self.cap));
        }
        Ok(())
    }
}

/// A student's extra time (the roster's `extension` column).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ExtraTime {
    /// This many hours after the assignment's due date.
    Hours(f64),
    /// A due date of their own.
    Until(Moment),
}

impl ExtraTime {
    /// The extension `text` says: a number of hours (`48`, `1.5`) or a date-time in RFC 3339.
    pub fn parse(text: &str) -> Option<ExtraTime> {
        let text = text.trim();
        match text.parse::<f64>() {
            Ok(hours) if hours.is_finite() && hours >= 0.0 => Some(ExtraTime::Hours(hours)),
            Ok(_) => None,
            Err(_) => Moment::parse(text).map(ExtraTime::Until),
        }
    }

    /// The due date it gives for an assignment due at `due`.
    pub fn due(self, due: Timestamp) -> Timestamp {
        match self {
            ExtraTime::Hours(hours) => due
                .checked_add(SignedDuration::from_secs_f64(hours * 3600.0))
                .unwrap_or(Timestamp::MAX),
            ExtraTime::Until(moment) => moment.at,
        }
    }
}

/// How late a submission was, and what it costs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lateness {
    /// How long after its due date it came (zero when on time or within the grace period).
    pub late: SignedDuration,
    /// The periods started late (0 when on time).
    pub periods: i64,
    /// The points taken off.
    pub penalty: f64,
}

/// How late a submission at `submitted` is under `policy`, for an assignment of `points` and
/// a student whose due date `extensions` move (the latest of them counts, for a group): on
/// time up to the grace period after the due date; after it, each period started from the due
/// date costs `penalty` percent of the points, `cap` percent at most.
pub fn lateness(
    policy: &LatePolicy,
    extensions: &[ExtraTime],
    submitted: Timestamp,
    points: f64,
) -> Lateness {
    let due = extensions
        .iter()
        .map(|e| e.due(policy.due.at))
        .max()
        .unwrap_or(policy.due.at);
    let late = submitted.duration_since(due);
    let grace = SignedDuration::from_mins(i64::from(policy.grace_minutes));
    if late <= grace || late <= SignedDuration::ZERO {
        return Lateness {
            late: SignedDuration::ZERO,
            periods: 0,
            penalty: 0.0,
        };
    }
    let length = policy.per.length().as_nanos();
    let periods = i64::try_from((late.as_nanos() + length - 1) / length).unwrap_or(i64::MAX);
    let percent = (periods as f64 * policy.penalty).min(policy.cap);
    Lateness {
        late,
        periods,
        penalty: points * percent / 100.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(per: Per) -> LatePolicy {
        LatePolicy {
            due: Moment::parse("2026-11-20T23:59:00-08:00").unwrap(),
            penalty: 10.0,
            per,
            cap: 30.0,
            grace_minutes: 15,
        }
    }

    /// The moment `text`, which must parse.
    fn at(text: &str) -> Timestamp {
        Moment::parse(text).unwrap().at
    }

    #[test]
    fn times_read_as_rfc_3339_and_as_gradescope_writes_them() {
        let gradescope = Moment::parse("2026-11-20 23:10:05.123456000 -08:00").unwrap();
        assert_eq!(gradescope.to_string(), "2026-11-20T23:10:05-08:00");
        assert_eq!(gradescope.at, at("2026-11-21T07:10:05.123456Z"));
        assert_eq!(
            Moment::parse("2026-11-21T07:10:05Z").unwrap().to_string(),
            "2026-11-21T07:10:05+00:00"
        );
        for bad in ["2026-11-20", "2026-11-20 23:10:05", "tomorrow", "", "=1+1"] {
            assert_eq!(Moment::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn extensions_are_hours_or_a_due_date() {
        assert_eq!(ExtraTime::parse("48"), Some(ExtraTime::Hours(48.0)));
        assert_eq!(ExtraTime::parse(" 1.5 "), Some(ExtraTime::Hours(1.5)));
        assert!(matches!(
            ExtraTime::parse("2026-11-25T12:00:00+01:00"),
            Some(ExtraTime::Until(_))
        ));
        for bad in ["-3", "NaN", "inf", "two days", "2026-11-25"] {
            assert_eq!(ExtraTime::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_penalty_by_the_edges_of_the_policy() {
        let day = policy(Per::Day);
        let points = 50.0;
        // (submitted, periods, penalty)
        let table = [
            ("2026-11-20T20:00:00-08:00", 0, 0.0),  // early
            ("2026-11-20T23:59:00-08:00", 0, 0.0),  // exactly on time
            ("2026-11-21T00:10:00-08:00", 0, 0.0),  // within the grace
            ("2026-11-21T00:14:00-08:00", 0, 0.0),  // the grace's last moment
            ("2026-11-21T00:14:01-08:00", 1, 5.0),  // just after it
            ("2026-11-21T23:59:00-08:00", 1, 5.0),  // exactly one day
            ("2026-11-21T23:59:01-08:00", 2, 10.0), // a day and a second
            ("2026-11-23T23:59:01-08:00", 4, 15.0), // capped at 30 %
            ("2026-12-31T00:00:00-08:00", 41, 15.0),
        ];
        for (submitted, periods, penalty) in table {
            let got = lateness(&day, &[], at(submitted), points);
            assert_eq!(
                (got.periods, got.penalty),
                (periods, penalty),
                "{submitted}"
            );
        }
        let hour = lateness(
            &policy(Per::Hour),
            &[],
            at("2026-11-21T01:30:00-08:00"),
            50.0,
        );
        assert_eq!((hour.periods, hour.penalty), (2, 10.0));
        assert_eq!(hour.late, SignedDuration::from_mins(91));
    }

    #[test]
    fn an_extension_moves_the_due_date_and_the_latest_of_a_group_counts() {
        let day = policy(Per::Day);
        let submitted = at("2026-11-22T10:00:00-08:00");
        assert_eq!(lateness(&day, &[], submitted, 10.0).periods, 2);
        let two_days = ExtraTime::Hours(48.0);
        assert_eq!(lateness(&day, &[two_days], submitted, 10.0).periods, 0);
        let own = ExtraTime::Until(Moment::parse("2026-11-22T09:00:00-08:00").unwrap());
        let got = lateness(&day, &[own], submitted, 10.0);
        assert_eq!((got.periods, got.late), (1, SignedDuration::from_hours(1)));
        // The most generous of a group's extensions counts.
        assert_eq!(lateness(&day, &[own, two_days], submitted, 10.0).periods, 0);
    }

    #[test]
    fn a_policy_with_percents_out_of_range_is_refused() {
        let mut bad = policy(Per::Day);
        bad.penalty = 120.0;
        assert!(bad.validate().unwrap_err().to_string().contains("penalty"));
        let mut bad = policy(Per::Day);
        bad.cap = -1.0;
        assert!(bad.validate().unwrap_err().to_string().contains("cap"));
        assert_eq!(policy(Per::Hour).validate(), Ok(()));
    }
}
