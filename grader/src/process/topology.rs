//! The CPUs a measurement runs on. The kernel's layout of the machine's CPUs (sysfs: each
//! CPU's physical package, core and SMT siblings, `/sys/devices/system/cpu/cpuN/topology/`),
//! and a choice of CPUs among those the grader may use, on distinct physical cores first: two
//! SMT siblings share one core's pipeline and caches, so threads on them slow each other down
//! as a student's threads would not on cores of their own. The calling thread is pinned to the
//! chosen CPUs ([`pin`]), so that the programs it starts and the threads it spawns (the
//! student's program and the grader's own calibration alike) run on the same ones.
//!
//! The sysfs root is a parameter, so that tests can give any machine's layout. Two switches
//! simulate a larger machine, for tests only (the report says the machine was simulated):
//! - `CONNECT_FOUR_GRADER_SYSFS`: a folder read in place of `/sys/devices/system/cpu`;
//! - `CONNECT_FOUR_GRADER_CPUS`: the CPUs the grader may use, as a Linux CPU list (`0-15`),
//!   in place of its affinity; [`pin`] runs simulated CPU `n` on the `n`th of the real ones
//!   (modulo their number), and [`super::Cpus`] counts the simulated ones.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock, PoisonError};

/// Where the kernel lays out the CPUs.
pub const SYSFS: &str = "/sys/devices/system/cpu";

/// The switch that reads a simulated layout in place of [`SYSFS`].
pub const SIMULATED_SYSFS: &str = "CONNECT_FOUR_GRADER_SYSFS";

/// The switch that gives the grader a simulated set of CPUs.
pub const SIMULATED_CPUS: &str = "CONNECT_FOUR_GRADER_CPUS";

/// Writes a simulated machine's layout under `root`, for [`SIMULATED_SYSFS`]: `packages`
/// packages of `cores` cores of `smt` CPUs each, numbered as Linux numbers them on x86 (the
/// first sibling of every core first: cpu0 and cpu8 share a core on 8 cores with SMT).
pub fn write_layout(root: &Path, packages: usize, cores: usize, smt: usize) -> io::Result<()> {
    let physical = packages * cores;
    for cpu in 0..physical * smt {
        let core = cpu % physical;
        let dir = root.join(format!("cpu{cpu}/topology"));
        fs::create_dir_all(&dir)?;
        let siblings: Vec<String> = (0..smt)
            .map(|s| (core + s * physical).to_string())
            .collect();
        fs::write(dir.join("core_id"), format!("{}\n", core % cores))?;
        fs::write(
            dir.join("physical_package_id"),
            format!("{}\n", core / cores),
        )?;
        fs::write(
            dir.join("thread_siblings_list"),
            format!("{}\n", siblings.join(",")),
        )?;
    }
    fs::write(
        root.join("online"),
        format!("0-{}\n", (physical * smt).saturating_sub(1)),
    )
}

/// One CPU the kernel schedules on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cpu {
    /// Its number (`cpuN`).
    pub id: usize,
    /// Its physical package (socket).
    pub package: usize,
    /// Its core's number within the package.
    pub core: usize,
    /// The CPUs of its physical core, itself included (SMT siblings), lowest first.
    pub siblings: Vec<usize>,
}

impl Cpu {
    /// Its physical core: the lowest CPU on it.
    fn physical(&self) -> usize {
        self.siblings.first().copied().unwrap_or(self.id)
    }
}

/// The machine's CPUs, as sysfs lays them out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Topology {
    cpus: Vec<Cpu>,
}

impl Topology {
    /// This machine's, from [`SYSFS`] or [`SIMULATED_SYSFS`].
    pub fn of_this_machine() -> Topology {
        let root =
            std::env::var_os(SIMULATED_SYSFS).map_or_else(|| PathBuf::from(SYSFS), PathBuf::from);
        Topology::read(&root)
    }

    /// The layout under `root` (a `/sys/devices/system/cpu`): every `cpuN` folder. A CPU whose
    /// topology cannot be read is a core of its own, in package 0.
    pub fn read(root: &Path) -> Topology {
        let mut cpus: Vec<Cpu> = fs::read_dir(root)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|entry| {
                let name = entry.file_name();
                let id: usize = name.to_str()?.strip_prefix("cpu")?.parse().ok()?;
                let dir = entry.path().join("topology");
                let number = |file: &str| -> Option<usize> {
                    fs::read_to_string(dir.join(file)).ok()?.trim().parse().ok()
                };
                let siblings = fs::read_to_string(dir.join("thread_siblings_list"))
                    .ok()
                    .and_then(|text| cpu_list(&text))
                    .filter(|list| list.contains(&id))
                    .unwrap_or_else(|| vec![id]);
                Some(Cpu {
                    id,
                    package: number("physical_package_id").unwrap_or(0),
                    core: number("core_id").unwrap_or(id),
                    siblings,
                })
            })
            .collect();
        cpus.sort_by_key(|cpu| cpu.id);
        Topology { cpus }
    }

    /// CPU `id`, if the layout has it.
    pub fn cpu(&self, id: usize) -> Option<&Cpu> {
        self.cpus.iter().find(|cpu| cpu.id == id)
    }

    /// A CPU's physical core: its lowest sibling (itself, for a CPU the layout lacks).
    fn physical(&self, id: usize) -> usize {
        self.cpu(id).map_or(id, Cpu::physical)
    }
}

/// A Linux CPU list (`0-3,8,10-11`), in order; `None` if malformed.
pub fn cpu_list(text: &str) -> Option<Vec<usize>> {
    let mut cpus = BTreeSet::new();
    for part in text.trim().split(',').filter(|p| !p.is_empty()) {
        match part.split_once('-') {
            Some((low, high)) => {
                let (low, high): (usize, usize) = (low.parse().ok()?, high.parse().ok()?);
                if high < low || high - low > 4096 {
                    return None;
                }
                cpus.extend(low..=high);
            }
            None => {
                cpus.insert(part.parse().ok()?);
            }
        }
    }
    Some(cpus.into_iter().collect())
}

/// The CPUs chosen for a measurement, and the physical cores they are on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chosen {
    /// The CPUs, in the order chosen.
    pub cpus: Vec<usize>,
    /// Each one's physical package and core, in the same order.
    pub cores: Vec<(usize, usize)>,
    /// How many distinct physical cores they are on.
    pub distinct: usize,
    /// On a simulated machine, how many real CPUs its CPUs ran on.
    pub simulated_on: Option<usize>,
}

impl Chosen {
    /// Whether two of them are SMT siblings, sharing one physical core.
    pub fn shares_a_core(&self) -> bool {
        self.distinct < self.cpus.len()
    }
}

/// `count` CPUs of `allowed` (the grader's affinity, in the order preferred), on as many
/// distinct physical cores as there are: the first CPU of each core not yet taken, then, if
/// there are fewer cores than `count`, the other CPUs in order. All of `allowed` if it has
/// fewer than `count`; `None` if it is empty.
pub fn choose(allowed: &[usize], topology: &Topology, count: usize) -> Option<Chosen> {
    let mut seen = BTreeSet::new();
    let allowed: Vec<usize> = allowed
        .iter()
        .copied()
        .filter(|&c| seen.insert(c))
        .collect();
    // The physical cores taken: every CPU added after the first loop is on one of them.
    let mut physical = BTreeSet::new();
    let mut cpus: Vec<usize> = Vec::new();
    for &cpu in &allowed {
        if cpus.len() < count && physical.insert(topology.physical(cpu)) {
            cpus.push(cpu);
        }
    }
    for &cpu in &allowed {
        if cpus.len() < count && !cpus.contains(&cpu) {
            cpus.push(cpu);
        }
    }
    if cpus.is_empty() {
        return None;
    }
    let cores = cpus
        .iter()
        .map(|&c| {
            topology
                .cpu(c)
                .map_or((0, c), |cpu| (cpu.package, cpu.core))
        })
        .collect();
    Some(Chosen {
        cpus,
        cores,
        distinct: physical.len(),
        simulated_on: None,
    })
}

/// How many of this grader's measurements hold each CPU now.
static HELD: Mutex<BTreeMap<usize, usize>> = Mutex::new(BTreeMap::new());

/// CPUs held for one measurement until dropped, so that students graded at once (`--jobs`)
/// measure on cores no other measurement holds while there are any.
#[derive(Debug)]
pub struct Held {
    cpus: Vec<usize>,
}

/// `count` CPUs of `allowed` chosen as [`choose`] does, on the physical cores the fewest other
/// measurements of this grader hold (then in order), and held until the [`Held`] is dropped.
pub fn hold(allowed: &[usize], topology: &Topology, count: usize) -> Option<(Chosen, Held)> {
    let mut held = HELD.lock().unwrap_or_else(PoisonError::into_inner);
    let on_core = |cpu: usize| -> usize {
        let core = topology.physical(cpu);
        held.iter()
            .filter(|(&c, _)| topology.physical(c) == core)
            .map(|(_, &n)| n)
            .sum()
    };
    let mut preferred: Vec<usize> = allowed.to_vec();
    preferred.sort_by_key(|&cpu| (on_core(cpu), cpu));
    let mut chosen = choose(&preferred, topology, count)?;
    chosen.simulated_on = simulated_on();
    for &cpu in &chosen.cpus {
        *held.entry(cpu).or_insert(0) += 1;
    }
    let cpus = chosen.cpus.clone();
    Some((chosen, Held { cpus }))
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut held = HELD.lock().unwrap_or_else(PoisonError::into_inner);
        for cpu in &self.cpus {
            if let Some(n) = held.get_mut(cpu) {
                *n -= 1;
                if *n == 0 {
                    held.remove(cpu);
                }
            }
        }
    }
}

/// The CPUs the calling thread may run on (its affinity, or the simulated ones), in order;
/// empty if the kernel does not say.
pub fn allowed() -> Vec<usize> {
    simulated_cpus().ok().flatten().unwrap_or_else(affinity)
}

/// Why [`SIMULATED_CPUS`] cannot simulate CPUs: its text is not a list of CPUs, or names none.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{SIMULATED_CPUS}={text:?} (a test's simulated CPUs) is not a list of CPUs such \
     as 0-15 or 0,2,4-7",
    SIMULATED_CPUS = SIMULATED_CPUS
)]
pub struct SimulatedCpusError {
    /// The switch's text.
    pub text: String,
}

/// The simulated CPUs [`SIMULATED_CPUS`] names, if it is set; an error naming it if it is not
/// a CPU list or names none.
pub fn simulated_cpus() -> Result<Option<Vec<usize>>, SimulatedCpusError> {
    std::env::var_os(SIMULATED_CPUS)
        .map(|text| simulated_list(&text.to_string_lossy()))
        .transpose()
}

/// [`SIMULATED_CPUS`]'s `text` as CPUs; an error naming it if it is not a CPU list or names
/// none.
fn simulated_list(text: &str) -> Result<Vec<usize>, SimulatedCpusError> {
    match cpu_list(text) {
        Some(cpus) if !cpus.is_empty() => Ok(cpus),
        _ => Err(SimulatedCpusError {
            text: text.to_string(),
        }),
    }
}

/// On a simulated machine (either switch set), how many real CPUs its CPUs run on.
pub fn simulated_on() -> Option<usize> {
    let simulated =
        std::env::var_os(SIMULATED_CPUS).is_some() || std::env::var_os(SIMULATED_SYSFS).is_some();
    simulated.then(|| real().len())
}

/// The real CPUs this process may run on, as its affinity was when first asked (before any
/// [`pin`]).
fn real() -> &'static [usize] {
    static REAL: OnceLock<Vec<usize>> = OnceLock::new();
    REAL.get_or_init(affinity)
}

/// Simulated `cpus` on the `real` ones: CPU `n` on `real[n % real.len()]`, each real CPU once.
pub fn onto(cpus: &[usize], real: &[usize]) -> Vec<usize> {
    let mut mapped: Vec<usize> = Vec::new();
    for &cpu in cpus {
        if let Some(&on) = real.get(cpu % real.len().max(1)) {
            if !mapped.contains(&on) {
                mapped.push(on);
            }
        }
    }
    mapped
}

/// The CPUs the calling thread's affinity allows, in order; empty if the kernel does not say.
pub(super) fn affinity() -> Vec<usize> {
    // SAFETY: a zeroed cpu_set_t is valid, and sched_getaffinity writes at most its size.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return Vec::new();
        }
        (0..libc::CPU_SETSIZE as usize)
            .filter(|&cpu| libc::CPU_ISSET(cpu, &set))
            .collect()
    }
}

/// The calling thread pinned to some CPUs, until dropped: then it may run where it could
/// before.
#[derive(Debug)]
pub struct Pinned {
    before: Vec<usize>,
}

/// Pins the calling thread to `cpus` (simulated ones [`onto`] the real ones): the programs it
/// starts and the threads it spawns from now on inherit them.
pub fn pin(cpus: &[usize]) -> io::Result<Pinned> {
    let before = affinity();
    match simulated_cpus() {
        Ok(Some(_)) => set_affinity(&onto(cpus, real()))?,
        _ => set_affinity(cpus)?,
    }
    Ok(Pinned { before })
}

impl Drop for Pinned {
    fn drop(&mut self) {
        if !self.before.is_empty() {
            let _ = set_affinity(&self.before);
        }
    }
}

/// Sets the calling thread's affinity to `cpus`.
fn set_affinity(cpus: &[usize]) -> io::Result<()> {
    // SAFETY: a zeroed cpu_set_t is valid; CPU_SET is given numbers below CPU_SETSIZE only;
    // sched_setaffinity reads at most its size.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        for &cpu in cpus.iter().filter(|&&c| c < libc::CPU_SETSIZE as usize) {
            libc::CPU_SET(cpu, &mut set);
        }
        if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A fake machine's layout.
    pub(crate) fn machine(packages: usize, cores: usize, smt: usize) -> Topology {
        let dir = tempfile::tempdir().unwrap();
        write_layout(dir.path(), packages, cores, smt).unwrap();
        // Not a CPU: left alone.
        fs::create_dir_all(dir.path().join("cpufreq")).unwrap();
        Topology::read(dir.path())
    }

    #[test]
    fn cpu_lists_are_read_as_the_kernel_writes_them() {
        assert_eq!(cpu_list("0-3,8,10-11\n"), Some(vec![0, 1, 2, 3, 8, 10, 11]));
        assert_eq!(cpu_list("5"), Some(vec![5]));
        assert_eq!(cpu_list(""), Some(vec![]));
        assert_eq!(cpu_list("3-1"), None);
        assert_eq!(cpu_list("a"), None);
        assert_eq!(cpu_list("0-99999999"), None);
    }

    #[test]
    fn two_cpus_without_siblings_are_two_cores() {
        let two = machine(1, 2, 1);
        let chosen = choose(&[0, 1], &two, 2).unwrap();
        assert_eq!(chosen.cpus, [0, 1]);
        assert_eq!(chosen.cores, [(0, 0), (0, 1)]);
        assert!(!chosen.shares_a_core());
    }

    #[test]
    fn two_cpus_that_are_siblings_of_one_core_are_used_and_said_to_share_it() {
        let one_core = machine(1, 1, 2);
        let chosen = choose(&[0, 1], &one_core, 2).unwrap();
        assert_eq!(chosen.cpus, [0, 1]);
        assert_eq!(chosen.distinct, 1);
        assert!(chosen.shares_a_core());
    }

    #[test]
    fn four_cpus_as_two_smt_cores_give_two_threads_a_core_each() {
        // cpu0 and cpu2 share core 0, cpu1 and cpu3 core 1.
        let four = machine(1, 2, 2);
        assert_eq!(four.cpu(2).unwrap().siblings, [0, 2]);
        assert_eq!(choose(&[0, 1, 2, 3], &four, 2).unwrap().cpus, [0, 1]);
        // A cpuset of siblings' pairs: still a core each.
        assert_eq!(choose(&[0, 2, 3], &four, 2).unwrap().cpus, [0, 3]);
        // Four threads: both cores first, then their siblings.
        let all = choose(&[0, 1, 2, 3], &four, 4).unwrap();
        assert_eq!((all.cpus, all.distinct), (vec![0, 1, 2, 3], 2));
    }

    #[test]
    fn sixteen_cpus_in_two_packages_with_smt_spread_over_cores() {
        // Two packages of four cores, two siblings each: cpu0-7 the first siblings.
        let xeon = machine(2, 4, 2);
        let allowed: Vec<usize> = (0..16).collect();
        let chosen = choose(&allowed, &xeon, 8).unwrap();
        assert_eq!(chosen.cpus, (0..8).collect::<Vec<_>>());
        assert_eq!(chosen.distinct, 8);
        assert_eq!(chosen.cores[5], (1, 1));
        // The grader's cpuset holds only the upper half (every core's second sibling).
        let upper: Vec<usize> = (8..16).collect();
        assert_eq!(choose(&upper, &xeon, 2).unwrap().cpus, [8, 9]);
        // More threads than CPUs allowed: all of them.
        assert_eq!(choose(&[3, 11], &xeon, 4).unwrap().cpus, [3, 11]);
        assert_eq!(choose(&[], &xeon, 2), None);
    }

    #[test]
    fn measurements_at_once_hold_cores_no_other_holds_while_there_are_any() {
        let xeon = machine(2, 4, 2);
        let allowed: Vec<usize> = (0..16).collect();
        let (first, held) = hold(&allowed, &xeon, 2).unwrap();
        let (second, _also) = hold(&allowed, &xeon, 2).unwrap();
        let cores = |c: &Chosen| -> BTreeSet<usize> {
            c.cpus.iter().map(|&cpu| xeon.physical(cpu)).collect()
        };
        assert!(
            cores(&first).is_disjoint(&cores(&second)),
            "{first:?} {second:?}"
        );
        assert_eq!(second.distinct, 2);
        drop(held);
        let (third, _) = hold(&allowed, &xeon, 2).unwrap();
        assert!(
            cores(&third).is_disjoint(&cores(&second)),
            "{third:?} {second:?}"
        );
        // Every core held: the least held are shared.
        let (all, _all) = hold(&allowed, &xeon, 16).unwrap();
        assert_eq!(all.cpus.len(), 16);
    }

    #[test]
    fn a_layout_that_cannot_be_read_makes_every_cpu_a_core() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("cpu0")).unwrap();
        fs::create_dir_all(dir.path().join("cpu1/topology")).unwrap();
        fs::write(dir.path().join("cpu1/topology/thread_siblings_list"), "x").unwrap();
        let topology = Topology::read(dir.path());
        assert_eq!(topology.cpu(1).unwrap().siblings, [1]);
        assert_eq!(choose(&[0, 1], &topology, 2).unwrap().distinct, 2);
        assert_eq!(
            Topology::read(Path::new("/nonexistent")),
            Topology::default()
        );
    }

    #[test]
    fn simulated_cpus_run_on_the_real_ones_modulo_their_number() {
        assert_eq!(simulated_list("0-15"), Ok((0..16).collect()));
        for bad in ["", "0-x", "7-3", " , "] {
            let error = simulated_list(bad).unwrap_err().to_string();
            assert!(error.starts_with("CONNECT_FOUR_GRADER_CPUS="), "{error}");
            assert!(error.contains("such as 0-15"), "{error}");
        }
        // 16 simulated CPUs on a 2-CPU machine: the even ones on the first, the odd on the
        // second; on a machine whose affinity is CPUs 4 and 6, on those.
        assert_eq!(onto(&[0, 1], &[0, 1]), [0, 1]);
        assert_eq!(onto(&[0, 2, 4, 6], &[0, 1]), [0]);
        assert_eq!(onto(&(0..7).collect::<Vec<_>>(), &[4, 6]), [4, 6]);
        assert_eq!(onto(&[3], &[]), Vec::<usize>::new());
    }

    #[test]
    fn this_machine_can_be_pinned_and_unpinned() {
        let before = allowed();
        assert!(!before.is_empty());
        {
            let _pinned = pin(&before[..1]).unwrap();
            assert_eq!(allowed(), before[..1]);
        }
        assert_eq!(allowed(), before);
    }

    /// The most distinct physical cores any `count` of `allowed` can be on, by trying every
    /// choice.
    fn most_cores(allowed: &[usize], topology: &Topology, count: usize) -> usize {
        let n = allowed.len();
        (0u32..1 << n)
            .filter(|mask| mask.count_ones() as usize == count.min(n))
            .map(|mask| {
                (0..n)
                    .filter(|i| mask & (1 << i) != 0)
                    .map(|i| topology.physical(allowed[i]))
                    .collect::<BTreeSet<_>>()
                    .len()
            })
            .max()
            .unwrap_or(0)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn the_choice_is_on_as_many_cores_as_any(
            packages in 1usize..3,
            cores in 1usize..4,
            smt in 1usize..3,
            mask in 1u32..(1 << 12),
            count in 1usize..6,
        ) {
            let topology = machine(packages, cores, smt);
            let total = packages * cores * smt;
            let allowed: Vec<usize> = (0..total).filter(|c| mask & (1 << c) != 0).collect();
            prop_assume!(!allowed.is_empty());
            let chosen = choose(&allowed, &topology, count).unwrap();
            prop_assert_eq!(chosen.cpus.len(), count.min(allowed.len()));
            prop_assert!(chosen.cpus.iter().all(|c| allowed.contains(c)));
            let unique: BTreeSet<_> = chosen.cpus.iter().collect();
            prop_assert_eq!(unique.len(), chosen.cpus.len());
            prop_assert_eq!(chosen.distinct, most_cores(&allowed, &topology, count));
        }
    }
}
