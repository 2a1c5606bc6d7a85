//! A pool of worker threads that wait to be handed work, wait/notify style, as the assignment
//! asks: the threads are created once and kept; each sleeps on its own condition variable until
//! the main thread gives it a task; the moment it reports back, the main thread gives it the next.
//!
//! The pool knows nothing of Connect Four: [`Pool::map`] runs a function over a list of tasks and
//! returns the results in task order, so they never depend on the number of threads or on which
//! thread ran what. A task that panics becomes a [`PoolError`]; dropping the pool wakes and joins
//! every worker.

use std::any::Any;
use std::fmt;
use std::io;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;

use crossbeam::channel::{unbounded, Receiver, Sender};

/// A job handed to one worker.
type Job = Box<dyn FnOnce() + Send>;

/// What a worker's slot holds.
enum Slot {
    /// Nothing to do: the worker sleeps.
    Idle,
    /// A job the worker has not started yet.
    Job(Job),
    /// The pool is being dropped: the worker exits.
    Stop,
}

/// One worker's mailbox: the slot and the condition it waits on.
struct Mailbox {
    slot: Mutex<Slot>,
    wake: Condvar,
}

impl Mailbox {
    fn put(&self, slot: Slot) {
        *self.slot.lock().unwrap_or_else(|e| e.into_inner()) = slot;
        self.wake.notify_one();
    }

    /// Sleeps until the slot holds a job or a stop, and takes it.
    fn take(&self) -> Slot {
        let mut slot = self.slot.lock().unwrap_or_else(|e| e.into_inner());
        while matches!(*slot, Slot::Idle) {
            slot = self.wake.wait(slot).unwrap_or_else(|e| e.into_inner());
        }
        std::mem::replace(&mut *slot, Slot::Idle)
    }
}

/// A worker's report that its job is done: which worker, and the panic message if it panicked.
struct Done {
    worker: usize,
    panic: Option<String>,
}

/// The pool could not do its work.
#[derive(Debug)]
pub enum PoolError {
    /// The operating system refused to start a worker thread (its error is the source).
    Spawn {
        /// Which worker, counted from 1.
        worker: usize,
        /// How many workers the pool was to have.
        threads: usize,
        /// Why the thread could not start.
        source: io::Error,
    },
    /// A task panicked inside a worker thread.
    Panicked {
        /// The panic's message, `(no message)` if its payload was not text.
        message: String,
    },
    /// A worker thread ended without reporting its task's result.
    Lost,
}

impl fmt::Display for PoolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PoolError::Spawn {
                worker, threads, ..
            } => write!(
                f,
                "the operating system refused to start worker thread {worker} of {threads}"
            ),
            PoolError::Panicked { message } => write!(f, "a worker thread panicked: {message}"),
            PoolError::Lost => f.write_str("a worker thread died"),
        }
    }
}

impl std::error::Error for PoolError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PoolError::Spawn { source, .. } => Some(source),
            PoolError::Panicked { .. } | PoolError::Lost => None,
        }
    }
}

/// A fixed set of worker threads, created once, that run tasks handed out one at a time.
pub struct Pool {
    mailboxes: Vec<Arc<Mailbox>>,
    handles: Vec<JoinHandle<()>>,
    done: Receiver<Done>,
}

impl Pool {
    /// Starts `threads` workers (at least one), each waiting for its first task. Fails if the
    /// operating system refuses to start one (the workers already started are stopped).
    pub fn new(threads: usize) -> Result<Pool, PoolError> {
        let (report, done) = unbounded();
        let mut pool = Pool {
            mailboxes: Vec::new(),
            handles: Vec::new(),
            done,
        };
        let wanted = threads.max(1);
        for worker in 0..wanted {
            let mailbox = Arc::new(Mailbox {
                slot: Mutex::new(Slot::Idle),
                wake: Condvar::new(),
            });
            let (mine, report) = (Arc::clone(&mailbox), report.clone());
            let handle = std::thread::Builder::new()
                .name(format!("connect-four-worker-{worker}"))
                .spawn(move || work(worker, &mine, &report))
                .map_err(|source| PoolError::Spawn {
                    worker: worker + 1,
                    threads: wanted,
                    source,
                })?;
            pool.mailboxes.push(mailbox);
            pool.handles.push(handle);
        }
        Ok(pool)
    }

    /// How many worker threads the pool has.
    pub fn threads(&self) -> usize {
        self.mailboxes.len()
    }

    /// Runs `f` on every task, on the workers, and returns the results in task order. Each idle
    /// worker is handed the next task as soon as it reports back. If a task panics, the other
    /// tasks already started are waited for and the first panic is returned as an error.
    pub fn map<T, R, F>(&mut self, tasks: Vec<T>, f: F) -> Result<Vec<R>, PoolError>
    where
        T: Send + 'static,
        R: Send + 'static,
        F: Fn(T) -> R + Send + Sync + 'static,
    {
        let total = tasks.len();
        let f = Arc::new(f);
        let (deliver, results) = unbounded::<(usize, R)>();
        let mut pending = tasks.into_iter().enumerate();
        let hand_out = |worker: usize, pending: &mut dyn Iterator<Item = (usize, T)>| {
            pending.next().map(|(index, task)| {
                let (f, deliver) = (Arc::clone(&f), deliver.clone());
                let job: Job = Box::new(move || {
                    let _ = deliver.send((index, f(task)));
                });
                self.mailboxes[worker].put(Slot::Job(job));
            })
        };
        let mut busy = 0;
        for worker in 0..self.threads() {
            if hand_out(worker, &mut pending).is_some() {
                busy += 1;
            }
        }
        let mut failure = None;
        while busy > 0 {
            let Ok(done) = self.done.recv() else {
                break;
            };
            busy -= 1;
            if let Some(message) = done.panic {
                failure.get_or_insert(PoolError::Panicked { message });
            }
            if failure.is_none() && hand_out(done.worker, &mut pending).is_some() {
                busy += 1;
            }
        }
        if let Some(error) = failure {
            return Err(error);
        }
        let mut slots: Vec<Option<R>> = (0..total).map(|_| None).collect();
        for (index, result) in results.try_iter() {
            slots[index] = Some(result);
        }
        slots
            .into_iter()
            .map(|r| r.ok_or(PoolError::Lost))
            .collect()
    }
}

/// A worker's life: take a job, run it, report, until told to stop.
fn work(worker: usize, mailbox: &Mailbox, report: &Sender<Done>) {
    while let Slot::Job(job) = mailbox.take() {
        let panic = catch_unwind(AssertUnwindSafe(job)).err().map(panic_message);
        if report.send(Done { worker, panic }).is_err() {
            return;
        }
    }
}

/// The text of a panic's payload.
fn panic_message(payload: Box<dyn Any + Send>) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".to_string())
}

impl Drop for Pool {
    /// Wakes every worker with a stop and joins it.
    fn drop(&mut self) {
        for mailbox in &self.mailboxes {
            mailbox.put(Slot::Stop);
        }
        for handle in self.handles.drain(..) {
            let _ = handle.join();
        }
    }
}

impl fmt::Debug for Pool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pool")
            .field("threads", &self.threads())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;
    use std::sync::Mutex;

    #[test]
    fn results_come_back_in_task_order_for_any_thread_count() {
        for threads in [1, 2, 3, 8] {
            let mut pool = Pool::new(threads).unwrap();
            let out = pool.map((0..50u64).collect(), |x| x * x).unwrap();
            assert_eq!(out, (0..50u64).map(|x| x * x).collect::<Vec<_>>());
        }
    }

    #[test]
    fn the_same_threads_serve_every_call() {
        let mut pool = Pool::new(2).unwrap();
        let names = Arc::new(Mutex::new(HashSet::new()));
        for _ in 0..5 {
            let names = Arc::clone(&names);
            pool.map(vec![(); 8], move |_| {
                let name = std::thread::current().name().unwrap().to_string();
                names.lock().unwrap().insert(name);
            })
            .unwrap();
        }
        let names = names.lock().unwrap();
        assert!(
            names.len() <= 2,
            "more threads than the pool owns: {names:?}"
        );
        assert!(names.iter().all(|n| n.starts_with("connect-four-worker-")));
    }

    #[test]
    fn a_panicking_task_is_an_error_and_the_pool_still_works() {
        let mut pool = Pool::new(2).unwrap();
        let err = pool
            .map(vec![1, 2, 3, 4], |x| {
                if x == 3 {
                    panic!("task {x} failed");
                }
                x
            })
            .unwrap_err();
        assert!(
            matches!(&err, PoolError::Panicked { message } if message == "task 3 failed"),
            "{err:?}"
        );
        assert_eq!(err.to_string(), "a worker thread panicked: task 3 failed");
        assert_eq!(pool.map(vec![5, 6], |x| x + 1).unwrap(), vec![6, 7]);
    }

    #[test]
    fn no_tasks_no_results_and_zero_threads_means_one() {
        let mut pool = Pool::new(0).unwrap();
        assert_eq!(pool.threads(), 1);
        assert_eq!(pool.map(Vec::<u8>::new(), |x| x).unwrap(), Vec::<u8>::new());
    }

    #[test]
    fn dropping_the_pool_joins_its_threads() {
        thread_local! {
            static HELD: std::cell::RefCell<Option<Arc<()>>> = const { std::cell::RefCell::new(None) };
        }
        let token = Arc::new(());
        let mut pool = Pool::new(3).unwrap();
        let shared = Arc::clone(&token);
        pool.map(vec![(); 9], move |_| {
            HELD.with(|h| *h.borrow_mut() = Some(Arc::clone(&shared)));
        })
        .unwrap();
        assert!(
            Arc::strong_count(&token) > 1,
            "workers keep their thread-locals while alive"
        );
        drop(pool);
        assert_eq!(
            Arc::strong_count(&token),
            1,
            "every worker thread has exited"
        );
    }
}
