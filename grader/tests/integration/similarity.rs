//! `grade similar` on the test class ([`crate::classroom`]), through the real binary: every
//! copied pair ranks above every independent pair by a margin (lowest copy over highest
//! independent) of at least 1.3 in each language and in the one ranking, and the two students
//! who changed little of the starter are not flagged; a disguised pair's page, opened in headless Chromium, shows
//! the two submissions side by side with their shared fragments marked (pinned by a snapshot);
//! bad arguments and folders get clear errors. A small class of its own shows how copies are
//! shown: a verbatim copy of the completed starter as a few fragments over almost all its
//! lines, a copy hidden under `build/` ranked with the plain copy, and a padded copy given one
//! score by its page and the CSV.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use connect_four_grader::similarity::load;
use connect_four_grader::similarity::{compare, Base, Origin as From};
use headless_chrome::{Browser, LaunchOptions};

use crate::classroom::{write_class, Class, Origin};
use crate::disguise::Language;
use crate::gallery::chromium;
use crate::support::{build_root, completed_starter, copy_dir, fixtures, grade, repository};

/// The test class compared once for these tests: the class, its report folder, and every
/// pair's score (the smaller side covered, in percent) and rank by their names in order.
struct Compared {
    class: Class,
    reports: PathBuf,
    coverage: BTreeMap<(String, String), f64>,
    rank: BTreeMap<(String, String), usize>,
}

/// Two names in order.
fn key(a: &str, b: &str) -> (String, String) {
    match a < b {
        true => (a.to_string(), b.to_string()),
        false => (b.to_string(), a.to_string()),
    }
}

fn compared() -> &'static Compared {
    static COMPARED: OnceLock<Compared> = OnceLock::new();
    COMPARED.get_or_init(|| {
        let work = build_root().join("similarity-class");
        if work.exists() {
            fs::remove_dir_all(&work).unwrap();
        }
        let class = write_class(&work.join("class"));
        let reports = work.join("reports");
        let output = grade()
            .arg("similar")
            .arg(work.join("class"))
            .arg("--base")
            .arg(&class.base)
            .arg("--report")
            .arg(&reports)
            .output()
            .expect("grade starts");
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success(),
            "{stdout}{}",
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(stdout.starts_with("Similar pairs are leads for a person to judge"));
        let mut coverage = BTreeMap::new();
        let mut rank = BTreeMap::new();
        let mut reader = csv::Reader::from_path(reports.join("similarity.csv")).unwrap();
        for row in reader.records() {
            let row = row.unwrap();
            let pair = key(&row[3], &row[4]);
            rank.insert(pair.clone(), row[0].parse::<usize>().unwrap());
            coverage.insert(pair, row[6].parse::<f64>().unwrap());
        }
        Compared {
            class,
            reports,
            coverage,
            rank,
        }
    })
}

impl Compared {
    /// The score of the two students, 0 when they share nothing.
    fn of(&self, a: &str, b: &str) -> f64 {
        self.coverage.get(&key(a, b)).copied().unwrap_or(0.0)
    }
}

/// The lowest score of a copied pair over the highest of an independent pair among `pairs`
/// (each a score and whether it is a copy), with the two pairs, for the message.
fn margin<'a>(pairs: &[(f64, bool, &'a str, &'a str)]) -> (f64, String) {
    let lowest = pairs
        .iter()
        .filter(|p| p.1)
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .expect("copied pairs");
    let highest = pairs
        .iter()
        .filter(|p| !p.1)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .expect("independent pairs");
    (
        lowest.0 / highest.0.max(0.1),
        format!(
            "lowest copy {} ~ {} at {:.1}%, highest independent {} ~ {} at {:.1}%",
            lowest.2, lowest.3, lowest.0, highest.2, highest.3, highest.0
        ),
    )
}

#[test]
fn every_copied_pair_ranks_above_every_independent_pair_by_a_margin_in_each_language_and_overall() {
    let compared = compared();
    let class = &compared.class;
    let mut everyone = Vec::new();
    for language in [Language::Rust, Language::Java, Language::Python] {
        let names: Vec<&str> = class.of(language).map(|s| s.name.as_str()).collect();
        let mut pairs = Vec::new();
        for (i, a) in names.iter().enumerate() {
            for b in &names[i + 1..] {
                if !class.indirect.contains(&key(a, b)) {
                    pairs.push((compared.of(a, b), class.copied(a, b), *a, *b));
                }
            }
        }
        assert_eq!(pairs.iter().filter(|p| p.1).count(), 38, "{language:?}");
        let (margin, said) = margin(&pairs);
        eprintln!("similarity, {language:?}: margin {margin:.2}: {said}");
        assert!(margin >= 1.3, "{language:?}: margin {margin:.2}: {said}");
        everyone.extend(pairs);
    }
    let (margin, said) = margin(&everyone);
    eprintln!("similarity, the whole class: margin {margin:.2}: {said}");
    assert!(margin >= 1.3, "the whole class: margin {margin:.2}: {said}");
    // The one ranking: every copied pair's rank before every independent pair's.
    let rank = |a: &str, b: &str| compared.rank.get(&key(a, b)).copied().unwrap_or(usize::MAX);
    let last_copy = class.copies.iter().map(|(a, b)| rank(a, b)).max().unwrap();
    let first_other = everyone
        .iter()
        .filter(|p| !p.1)
        .map(|p| rank(p.2, p.3))
        .min()
        .unwrap();
    assert!(last_copy < first_other, "{last_copy} {first_other}");
}

#[test]
fn the_two_students_who_changed_little_of_the_starter_are_not_flagged() {
    let compared = compared();
    let starters: Vec<&str> = compared
        .class
        .students
        .iter()
        .filter(|s| s.origin == Origin::Starter)
        .map(|s| s.name.as_str())
        .collect();
    assert_eq!(starters.len(), 2);
    for name in &starters {
        for other in &compared.class.students {
            let score = compared.of(name, &other.name);
            assert!(score < 5.0, "{name} ~ {}: {score}%", other.name);
        }
    }
}

#[test]
fn a_disguised_pairs_page_shows_both_sides_with_the_shared_fragments_marked() {
    let compared = compared();
    let Some(chromium) = chromium() else {
        return;
    };
    // The best ranked of the copies with every disguise against their originals.
    let rank = ["rust_starter_completed", "java_fixture", "python_cho"]
        .iter()
        .map(|original| compared.rank[&key(original, &format!("{original}_all"))])
        .min()
        .unwrap();
    assert!(
        rank <= 100,
        "no copy with every disguise has a page: best rank {rank}"
    );
    let page = compared
        .reports
        .join(format!("similarity/pair-{rank:03}.html"));
    let browser = Browser::new(
        LaunchOptions::default_builder()
            .path(Some(chromium))
            .sandbox(false)
            .window_size(Some((1400, 1000)))
            .build()
            .unwrap(),
    )
    .expect("Chromium starts");
    let tab = browser.new_tab().unwrap();
    tab.navigate_to(&format!("file://{}", page.display()))
        .unwrap()
        .wait_until_navigated()
        .unwrap();
    // What a grader sees: the title, the warning, the fragments, each side's files and marks,
    // and whether the two sides stand side by side.
    let seen = tab
        .evaluate(SEEN, false)
        .unwrap()
        .value
        .and_then(|v| v.as_str().map(String::from))
        .expect("the page is read");
    let shot = tab
        .capture_screenshot(
            headless_chrome::protocol::cdp::Page::CaptureScreenshotFormatOption::Png,
            None,
            None,
            true,
        )
        .unwrap();
    fs::write(compared.reports.join("similarity/pair.png"), shot).unwrap();
    insta::assert_snapshot!(seen);
}

/// The script that reads the pair page as a grader sees it.
const SEEN: &str = r#"(() => {
  const text = (e) => e ? e.innerText.trim() : "(none)";
  const out = [];
  out.push(text(document.querySelector("h1")));
  out.push(text(document.querySelector(".leads")));
  const rows = [...document.querySelectorAll("table.fragments tbody tr")];
  out.push("fragments: " + rows.length);
  for (const row of rows.slice(0, 5)) {
    out.push("  " + [...row.cells].map((c) => c.innerText.trim()).join(" | "));
  }
  const sides = [...document.querySelectorAll("section.side")];
  for (const side of sides) {
    out.push(text(side.querySelector("h2")) + ": files " +
      [...side.querySelectorAll("h3")].map((h) => h.innerText).join(", ") +
      "; marked stretches " + side.querySelectorAll("mark").length);
  }
  const [l, r] = sides.map((s) => s.getBoundingClientRect());
  out.push("side by side: " + (l.right <= r.left && Math.abs(l.top - r.top) < 1));
  const broken = [...document.querySelectorAll("table.fragments a")]
    .filter((a) => !document.getElementById(a.getAttribute("href").slice(1)));
  out.push("links to no mark: " + broken.length);
  return out.join("\n");
})()"#;

#[test]
fn bad_folders_and_arguments_get_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let missing = grade()
        .arg("similar")
        .arg(dir.path().join("nowhere"))
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("nowhere: cannot be read"));
    let empty = grade().arg("similar").arg(dir.path()).output().unwrap();
    assert_eq!(empty.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&empty.stderr).contains("no submission folders"));
    fs::create_dir(dir.path().join("ann")).unwrap();
    let file = dir.path().join("base.rs");
    fs::write(&file, "fn main() {}").unwrap();
    let not_folder = grade()
        .arg("similar")
        .arg(dir.path())
        .arg("--base")
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(not_folder.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&not_folder.stderr).contains("must be a folder"));
    let both = grade()
        .args(["similar", "x", "--base", "y", "--no-base"])
        .output()
        .unwrap();
    assert_eq!(both.status.code(), Some(2));
}

#[test]
fn a_hostile_submission_is_compared_only_through_its_own_plain_files() {
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    let program =
        "def score(board, col):\n    total = 0\n    for row in range(len(board)):\n        \
                   if board[row][col] == 1:\n            total += row * 4\n    return total\n"
            .repeat(4);
    for student in ["ann", "bob"] {
        fs::create_dir_all(class.join(student)).unwrap();
        fs::write(class.join(student).join("game.py"), &program).unwrap();
    }
    // Eve links to another student's file and to a secret, and hides code the reader refuses.
    let secret = dir.path().join("secret.py");
    fs::write(&secret, "ANSWER = 'the secret answers'\n").unwrap();
    let eve = class.join("eve");
    fs::create_dir_all(&eve).unwrap();
    std::os::unix::fs::symlink(class.join("ann/game.py"), eve.join("copied.py")).unwrap();
    std::os::unix::fs::symlink(&secret, eve.join("secret.py")).unwrap();
    fs::write(eve.join("binary.py"), [0xff, 0xfe, 0x00, 0x01]).unwrap();
    fs::write(eve.join("huge.py"), "x = 1\n".repeat(200_000)).unwrap();
    let reports = dir.path().join("reports");
    let output = grade()
        .arg("similar")
        .arg(&class)
        .arg("--no-base")
        .arg("--report")
        .arg(&reports)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(
        stdout.contains("Compared 3 submissions: 1 pair shares something."),
        "{stdout}"
    );
    assert!(stdout.contains("ann ~ bob"), "{stdout}");
    assert!(
        !stdout.contains("eve ~") && !stdout.contains("~ eve"),
        "{stdout}"
    );
    assert!(stdout.contains("Not compared: eve: binary.py (it is not UTF-8 text)"));
    assert!(stdout.contains("Not compared: eve: huge.py (it is larger than 1024 KiB)"));
    for page in fs::read_dir(reports.join("similarity")).unwrap() {
        let text = fs::read_to_string(page.unwrap().path()).unwrap();
        assert!(!text.contains("the secret answers"));
    }
}

/// A verbatim copy of the completed starter (`bob` of `ann`) is shown as at most one fragment
/// per file it shares, over almost every line of the files compared; a copy of a Python
/// program under `build/` with a three-line loader (`quin`) is listed and ranked with the
/// plain copy (`pat`); a copy padded with a second program (`ray`) has one score on its page
/// and in the CSV; each page counts what was left out of its own pair. The pages of the
/// verbatim copy are shot in headless Chromium (`similarity-copies/pair.png` in the build
/// folder).
#[test]
fn copies_are_shown_as_the_copies_they_are_wherever_their_files_lie() {
    let work = build_root().join("similarity-copies");
    if work.exists() {
        fs::remove_dir_all(&work).unwrap();
    }
    let class = work.join("class");
    completed_starter(&class.join("ann"));
    copy_dir(&class.join("ann"), &class.join("bob"));
    let python = fs::read_to_string(fixtures().join("connect_four.py")).unwrap();
    let padding = fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/similarity/python/dev/connect4.py"),
    )
    .unwrap();
    for (student, path, text) in [
        ("pia", "connect_four.py", python.clone()),
        ("pat", "connect_four.py", python.clone()),
        ("quin", "build/engine.py", python.clone()),
        (
            "quin",
            "main.py",
            "import sys\nsys.path.insert(0, 'build')\nimport engine\n".into(),
        ),
        ("ray", "connect_four.py", format!("{python}\n{padding}")),
    ] {
        let path = class.join(student).join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }
    let starter = repository().join("starter");
    let reports = work.join("reports");
    let output = grade()
        .arg("similar")
        .arg(&class)
        .arg("--base")
        .arg(&starter)
        .arg("--report")
        .arg(&reports)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    let rows: Vec<csv::StringRecord> = csv::Reader::from_path(reports.join("similarity.csv"))
        .unwrap()
        .records()
        .map(Result::unwrap)
        .collect();
    let row = |a: &str, b: &str| {
        rows.iter()
            .find(|row| key(&row[3], &row[4]) == key(a, b))
            .unwrap_or_else(|| panic!("{a} ~ {b} listed: {rows:?}"))
    };
    // The copy under build/ is listed and ranked with the plain copy: the same score.
    let (plain, hidden) = (row("pia", "pat"), row("pia", "quin"));
    assert_eq!(&plain[6], "100.0", "{plain:?}");
    assert_eq!(&hidden[6], &plain[6], "{hidden:?}");
    assert!(hidden[9].parse::<usize>().unwrap() > 1000, "{hidden:?}");
    // The padded copy: its page's title and header, and the index, say the CSV's score.
    let padded = row("pia", "ray");
    let score = padded[6].parse::<f64>().unwrap().floor();
    let share = padded[7].parse::<f64>().unwrap();
    assert!(score >= 99.0 && share < 80.0, "{padded:?}");
    let page = |row: &csv::StringRecord| {
        let rank: usize = row[0].parse().unwrap();
        fs::read_to_string(reports.join(format!("similarity/pair-{rank:03}.html"))).unwrap()
    };
    let text = page(padded);
    assert!(
        text.contains(&format!(": score {score}%</title>")),
        "{text}"
    );
    assert!(
        text.contains(&format!("<strong>Score {score}%</strong>")),
        "{text}"
    );
    let index = fs::read_to_string(reports.join("similarity/index.html")).unwrap();
    assert!(index.contains(&format!("<td class=\"n\">{score}%</td>")));
    // The verbatim copy of the completed starter: a few fragments over almost all its lines.
    let settings = connect_four_grader::similarity::Settings::default();
    let base = Base::of(&[load::given(&starter, "starter")], settings);
    let compared = compare(
        load::class(&class, &From::Class).unwrap(),
        Vec::new(),
        &base,
        settings,
    );
    let pair = compared
        .pairs
        .iter()
        .find(|p| {
            compared.submissions[p.left].name == "ann"
                && compared.submissions[p.right].name == "bob"
        })
        .expect("ann ~ bob");
    let bob = &compared.submissions[pair.right];
    let shown: Vec<usize> = (0..bob.files.len())
        .filter(|&i| !compared.measures[pair.right].files[i].given_file)
        .collect();
    let lines = |i: usize| bob.files[i].text.lines().count();
    let covered: usize = pair
        .fragments
        .iter()
        .map(|f| {
            let (first, last) = connect_four_grader::report::similarity::lines(bob, &f.right);
            last - first + 1
        })
        .sum();
    let total: usize = shown.iter().map(|&i| lines(i)).sum();
    eprintln!(
        "similarity, a verbatim copy of the completed starter: {} fragments over {covered} of \
         {total} lines of its {} files compared",
        pair.fragments.len(),
        shown.len()
    );
    assert!(pair.fragments.len() <= shown.len(), "{:?}", pair.fragments);
    assert!(covered * 100 >= total * 90, "{covered} of {total}");
    // Each page counts what was left out of its own pair.
    let verbatim = page(row("ann", "bob"));
    let left_out = |text: &str| {
        text[text.find("Left out of the score").unwrap()..text.find("</ul>").unwrap()].to_string()
    };
    assert_ne!(left_out(&verbatim), left_out(&text));
    assert!(verbatim.contains("identical to a given file, not compared"));
    if let Some(chromium) = chromium() {
        screenshot(
            &chromium,
            &reports.join(format!(
                "similarity/pair-{:03}.html",
                row("ann", "bob")[0].parse::<usize>().unwrap()
            )),
            &work.join("pair.png"),
        );
        eprintln!(
            "similarity, the verbatim copy's page: {}",
            work.join("pair.png").display()
        );
    }
}

/// A screenshot of the page at `page` as a grader's browser shows it, written to `png`.
fn screenshot(chromium: &Path, page: &Path, png: &Path) {
    let browser = Browser::new(
        LaunchOptions::default_builder()
            .path(Some(chromium.to_path_buf()))
            .sandbox(false)
            .window_size(Some((1400, 1000)))
            .build()
            .unwrap(),
    )
    .expect("Chromium starts");
    let tab = browser.new_tab().unwrap();
    tab.navigate_to(&format!("file://{}", page.display()))
        .unwrap()
        .wait_until_navigated()
        .unwrap();
    let shot = tab
        .capture_screenshot(
            headless_chrome::protocol::cdp::Page::CaptureScreenshotFormatOption::Png,
            None,
            None,
            true,
        )
        .unwrap();
    fs::write(png, shot).unwrap();
}
