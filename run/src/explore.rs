//! `--explore`: every distinct interleaving of a serialized run's
//! scheduling points, by dynamic partial-order reduction.
//!
//! A serialized run (the job's `schedule` directive) writes a trace: at
//! every step, which thread the scheduler chose and, for every thread
//! parked at a scheduling point, whether it can go on and which objects its
//! next operation reads or writes (a signal cell; a thread's or a task's
//! completion):
//!
//! ```text
//! create 1 by 0
//! step 3 chose 1
//! thread 0 0 wait 1 7f3a10:r
//! thread 1 1 notify 1 7f3a10:w
//! thread 2 0 join 1 4000000000000001:a
//! ```
//!
//! An `a` access is a read that can only run after the object's one write
//! (a join of a thread's end, a dependency on a task's completion), so it
//! is never tried before that write.
//!
//! Two operations are *dependent* when they are of one thread or touch one
//! object and at least one of them writes it. Between scheduling points a
//! thread only touches data, whose order the race checker (`--sanitize
//! race`, on during exploration) reports where it matters, so two schedules
//! that order every dependent pair alike compute the same thing.
//! [`Explorer`] runs one schedule of each such class: source-set dynamic
//! partial-order reduction with sleep sets (Abdulla et al., "Optimal
//! dynamic partial order reduction", POPL 2014). After each run, for every
//! pair of dependent operations of two threads that the run's
//! happens-before leaves unordered, the state before the first gets a
//! thread that can start an order with the second first, unless it already
//! has one; a thread tried at a state sleeps in the states after it until
//! an operation it depends on runs, and a run in which every thread that
//! can go on sleeps is cut short (it could only repeat an explored order).
//! docs/pld-run.md says what this covers.

use std::collections::{BTreeSet, HashMap};

/// What one pending operation touches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    pub object: u64,
    pub write: bool,
    /// A read that can only follow the object's one write.
    pub awaits: bool,
}

/// A thread parked at a scheduling point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pending {
    pub thread: u32,
    /// Whether it can go on (a wait whose comparison holds, ...).
    pub enabled: bool,
    /// The operation's kind: notify, wait, test, join, ...
    pub what: String,
    pub accesses: Vec<Access>,
}

/// One choice of the scheduler.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub chosen: u32,
    /// Every parked thread at the choice, the chosen one included.
    pub pending: Vec<Pending>,
}

impl Step {
    fn operation(&self, thread: u32) -> Option<&Pending> {
        self.pending.iter().find(|p| p.thread == thread)
    }

    fn enabled(&self) -> impl Iterator<Item = u32> + '_ {
        self.pending.iter().filter(|p| p.enabled).map(|p| p.thread)
    }
}

/// A thread's creation: `creator`'s events before `step` happen before
/// all of the thread's (`None`: created by the harness).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Creation {
    pub thread: u32,
    pub creator: Option<u32>,
    pub step: usize,
}

/// A serialized run's trace.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trace {
    pub steps: Vec<Step>,
    pub creations: Vec<Creation>,
    /// The run ended because every thread that could run slept.
    pub asleep: bool,
}

/// A trace line that does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("trace line {line}: cannot read `{text}`")]
pub struct TraceError {
    pub line: usize,
    pub text: String,
}

impl Trace {
    /// Reads the harness's trace text.
    pub fn parse(text: &str) -> Result<Trace, TraceError> {
        let mut trace = Trace::default();
        for (index, line) in text.lines().enumerate() {
            let bad = || TraceError {
                line: index + 1,
                text: line.to_owned(),
            };
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                ["create", thread, "by", creator] => trace.creations.push(Creation {
                    thread: thread.parse().map_err(|_| bad())?,
                    creator: match creator.parse::<i64>().map_err(|_| bad())? {
                        -1 => None,
                        id => Some(u32::try_from(id).map_err(|_| bad())?),
                    },
                    step: trace.steps.len(),
                }),
                ["asleep"] => trace.asleep = true,
                ["step", step, "chose", chosen] => {
                    if step.parse::<usize>().ok() != Some(trace.steps.len()) {
                        return Err(bad());
                    }
                    trace.steps.push(Step {
                        chosen: chosen.parse().map_err(|_| bad())?,
                        pending: Vec::new(),
                    });
                }
                ["thread", thread, enabled, what, count, objects @ ..] => {
                    let accesses = objects
                        .iter()
                        .map(|object| {
                            let (id, mode) = object.split_once(':')?;
                            let (write, awaits) = match mode {
                                "w" => (true, false),
                                "r" => (false, false),
                                "a" => (false, true),
                                _ => return None,
                            };
                            Some(Access {
                                object: u64::from_str_radix(id, 16).ok()?,
                                write,
                                awaits,
                            })
                        })
                        .collect::<Option<Vec<_>>>()
                        .ok_or_else(bad)?;
                    if count.parse::<usize>().ok() != Some(accesses.len()) {
                        return Err(bad());
                    }
                    let pending = Pending {
                        thread: thread.parse().map_err(|_| bad())?,
                        enabled: match *enabled {
                            "1" => true,
                            "0" => false,
                            _ => return Err(bad()),
                        },
                        what: (*what).to_owned(),
                        accesses,
                    };
                    trace
                        .steps
                        .last_mut()
                        .ok_or_else(bad)?
                        .pending
                        .push(pending);
                }
                _ => return Err(bad()),
            }
        }
        Ok(trace)
    }

    /// The choices, as `--schedule` replays them.
    pub fn choices(&self) -> Vec<u32> {
        self.steps.iter().map(|step| step.chosen).collect()
    }
}

/// A trace that does not fit the exploration: the program did not follow
/// the schedule it was given, or a step's chosen thread is not parked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ExploreError(pub String);

/// The state before one step of the current schedule.
#[derive(Clone, Debug)]
struct Node {
    chosen: u32,
    /// The parked threads and their pending operations.
    pending: Vec<Pending>,
    enabled: BTreeSet<u32>,
    /// Threads to try here.
    backtrack: BTreeSet<u32>,
    /// Threads tried here.
    done: BTreeSet<u32>,
    /// Threads asleep on arrival: running one first here would only repeat
    /// an order explored before.
    asleep: BTreeSet<u32>,
}

impl Node {
    /// The threads asleep after this node's choice: those asleep here or
    /// tried here before, whose pending operation commutes with the
    /// chosen one's.
    fn asleep_after(&self) -> BTreeSet<u32> {
        let chosen = self.pending.iter().find(|p| p.thread == self.chosen);
        self.asleep
            .iter()
            .chain(&self.done)
            .copied()
            .filter(|&thread| thread != self.chosen)
            .filter(|&thread| {
                let pending = self.pending.iter().find(|p| p.thread == thread);
                match (pending, chosen) {
                    (Some(a), Some(b)) => independent(a, b),
                    _ => false,
                }
            })
            .collect()
    }
}

/// Whether two pending operations commute: no object that both touch and
/// one writes.
fn independent(a: &Pending, b: &Pending) -> bool {
    !a.accesses.iter().any(|x| {
        b.accesses
            .iter()
            .any(|y| x.object == y.object && (x.write || y.write))
    })
}

/// A schedule to run: the choices to replay, and the threads asleep when
/// they end.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Next {
    pub choices: Vec<u32>,
    pub asleep: Vec<u32>,
}

/// The exploration: which schedule to run next.
#[derive(Clone, Debug, Default)]
pub struct Explorer {
    nodes: Vec<Node>,
}

/// One step of a trace: its thread, its position among that thread's
/// steps (from 1), its vector clock.
#[derive(Clone, Debug)]
struct Event {
    thread: u32,
    local: u32,
    clock: Clock,
}

/// A vector clock over scheduler thread ids.
#[derive(Clone, Debug, Default)]
struct Clock(Vec<u32>);

impl Clock {
    fn get(&self, thread: u32) -> u32 {
        self.0.get(thread as usize).copied().unwrap_or(0)
    }

    fn tick(&mut self, thread: u32) -> u32 {
        let index = thread as usize;
        if self.0.len() <= index {
            self.0.resize(index + 1, 0);
        }
        self.0[index] += 1;
        self.0[index]
    }

    fn join(&mut self, other: &Clock) {
        if self.0.len() < other.0.len() {
            self.0.resize(other.0.len(), 0);
        }
        for (mine, theirs) in self.0.iter_mut().zip(&other.0) {
            *mine = (*mine).max(*theirs);
        }
    }
}

impl Explorer {
    pub fn new() -> Explorer {
        Explorer::default()
    }

    /// Takes in the trace of the run of the last [`Explorer::next_schedule`]
    /// schedule (the empty one first): records its steps and the choices
    /// its unordered dependent pairs call for.
    pub fn record(&mut self, trace: &Trace) -> Result<(), ExploreError> {
        for (index, node) in self.nodes.iter().enumerate() {
            match trace.steps.get(index) {
                Some(step) if step.chosen == node.chosen => {}
                _ => {
                    return Err(ExploreError(format!(
                        "the run did not follow its schedule at step {index}: the program is not deterministic under the scheduler"
                    )));
                }
            }
        }
        for step in &trace.steps[self.nodes.len()..] {
            let asleep = self
                .nodes
                .last()
                .map(Node::asleep_after)
                .unwrap_or_default();
            if asleep.contains(&step.chosen) {
                return Err(ExploreError(format!(
                    "the run chose thread {}, which sleeps there",
                    step.chosen
                )));
            }
            self.nodes.push(Node {
                chosen: step.chosen,
                pending: step.pending.clone(),
                enabled: step.enabled().collect(),
                backtrack: BTreeSet::from([step.chosen]),
                done: BTreeSet::from([step.chosen]),
                asleep,
            });
        }
        self.add_backtracking(trace)
    }

    /// For every pair of dependent operations of two threads that the
    /// trace's happens-before leaves unordered otherwise, a choice to try
    /// before the first.
    fn add_backtracking(&mut self, trace: &Trace) -> Result<(), ExploreError> {
        let mut clocks: HashMap<u32, Clock> = HashMap::new();
        let mut last_event: HashMap<u32, usize> = HashMap::new();
        let mut events: Vec<Event> = Vec::new();
        let mut accesses: HashMap<u64, Vec<(usize, bool)>> = HashMap::new();
        let mut creations = trace.creations.iter().peekable();
        for (index, step) in trace.steps.iter().enumerate() {
            while let Some(creation) = creations.next_if(|c| c.step <= index) {
                let inherited = creation
                    .creator
                    .and_then(|creator| clocks.get(&creator).cloned())
                    .unwrap_or_default();
                clocks.insert(creation.thread, inherited);
            }
            let thread = step.chosen;
            let operation = step.operation(thread).ok_or_else(|| {
                ExploreError(format!(
                    "step {index} chose thread {thread}, which the trace does not list as parked"
                ))
            })?;
            let before = clocks.entry(thread).or_default().clone();
            let previous = last_event.get(&thread).copied();
            let mut clock = before.clone();
            let mut races = Vec::new();
            for access in &operation.accesses {
                for &(earlier, write) in accesses.get(&access.object).into_iter().flatten() {
                    if !(write || access.write) {
                        continue;
                    }
                    let other = &events[earlier];
                    if !access.awaits
                        && other.thread != thread
                        && before.get(other.thread) < other.local
                    {
                        // A read that was already pending, and blocked,
                        // when the write ran cannot run before it: the
                        // writes that could let it run first race with
                        // this write themselves.
                        let blocked_read = !access.write
                            && previous.is_none_or(|p| p < earlier)
                            && !trace.steps[earlier]
                                .operation(thread)
                                .is_some_and(|pending| pending.enabled);
                        if !blocked_read {
                            races.push(earlier);
                        }
                    }
                    clock.join(&other.clock);
                }
            }
            let local = clock.tick(thread);
            clocks.insert(thread, clock.clone());
            last_event.insert(thread, index);
            events.push(Event {
                thread,
                local,
                clock,
            });
            for earlier in races {
                self.reverse(&events, earlier, index);
            }
            for access in &operation.accesses {
                accesses
                    .entry(access.object)
                    .or_default()
                    .push((index, access.write));
            }
        }
        Ok(())
    }

    /// Makes the state before event `first` try an order in which event
    /// `second` runs before it (the source sets of Abdulla et al.,
    /// "Optimal dynamic partial order reduction", POPL 2014): a thread
    /// that can start the events after `first` that do not depend on it,
    /// then `second`, unless one already is to be tried there.
    fn reverse(&mut self, events: &[Event], first: usize, second: usize) {
        let depends_on = |later: usize, earlier: usize| {
            events[later].clock.get(events[earlier].thread) >= events[earlier].local
        };
        let mut sequence: Vec<usize> = ((first + 1)..second)
            .filter(|&k| !depends_on(k, first))
            .collect();
        sequence.push(second);
        let mut initials = BTreeSet::new();
        let mut seen = BTreeSet::new();
        for (position, &k) in sequence.iter().enumerate() {
            if seen.insert(events[k].thread)
                && !sequence[..position]
                    .iter()
                    .any(|&earlier| depends_on(k, earlier))
            {
                initials.insert(events[k].thread);
            }
        }
        let node = &mut self.nodes[first];
        let startable: BTreeSet<u32> = initials.intersection(&node.enabled).copied().collect();
        if !startable.is_disjoint(&node.backtrack) {
            return;
        }
        let second_thread = events[second].thread;
        match startable.first() {
            Some(_) if startable.contains(&second_thread) => {
                node.backtrack.insert(second_thread);
            }
            Some(&thread) => {
                node.backtrack.insert(thread);
            }
            // No thread that starts the order can run there: every one
            // that can.
            None => {
                let enabled = node.enabled.clone();
                node.backtrack.extend(enabled);
            }
        }
    }

    /// The next schedule to run (a prefix of choices; the run takes the
    /// lowest thread id past it), or `None` when every class ran.
    pub fn next_schedule(&mut self) -> Option<Next> {
        while let Some(node) = self.nodes.last_mut() {
            let untried = node
                .backtrack
                .iter()
                .find(|thread| !node.done.contains(thread) && !node.asleep.contains(thread))
                .copied();
            if let Some(thread) = untried {
                // Threads tried here sleep on in the new order until
                // something they conflict with runs.
                node.chosen = thread;
                let asleep = node.asleep_after();
                node.done.insert(thread);
                return Some(Next {
                    choices: self.nodes.iter().map(|node| node.chosen).collect(),
                    asleep: asleep.into_iter().collect(),
                });
            }
            self.nodes.pop();
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A two-thread program simulated in the test: each thread runs its
    /// list of operations (object, write) in order; every operation is
    /// always enabled.
    fn simulate(programs: &[Vec<(u64, bool)>], prefix: &[u32]) -> Trace {
        simulate_asleep(
            programs,
            &Next {
                choices: prefix.to_vec(),
                asleep: Vec::new(),
            },
        )
        .0
    }

    /// The trace, and whether every thread that could run slept.
    fn simulate_asleep(programs: &[Vec<(u64, bool)>], next: &Next) -> (Trace, bool) {
        let mut asleep: BTreeSet<u32> = next.asleep.iter().copied().collect();
        let prefix = &next.choices;
        let mut at = vec![0; programs.len()];
        let mut trace = Trace::default();
        for thread in 0..programs.len() {
            trace.creations.push(Creation {
                thread: thread as u32,
                creator: None,
                step: 0,
            });
        }
        loop {
            let pending: Vec<Pending> = (0..programs.len())
                .filter(|&t| at[t] < programs[t].len())
                .map(|t| {
                    let (object, write) = programs[t][at[t]];
                    Pending {
                        thread: t as u32,
                        enabled: true,
                        what: "op".into(),
                        accesses: vec![Access {
                            object,
                            write,
                            awaits: false,
                        }],
                    }
                })
                .collect();
            if pending.is_empty() {
                return (trace, false);
            }
            let chosen = match prefix.get(trace.steps.len()) {
                Some(&chosen) => chosen,
                None => match pending.iter().find(|p| !asleep.contains(&p.thread)) {
                    Some(p) => {
                        let p = p.clone();
                        asleep.retain(|t| {
                            !pending
                                .iter()
                                .any(|q| q.thread == *t && !independent(q, &p))
                        });
                        p.thread
                    }
                    None => return (trace, true),
                },
            };
            at[chosen as usize] += 1;
            trace.steps.push(Step { chosen, pending });
        }
    }

    /// The complete runs of an exploration, and how many runs it made.
    fn explore(programs: &[Vec<(u64, bool)>]) -> (BTreeSet<Vec<u32>>, usize) {
        let mut explorer = Explorer::new();
        let mut next = Next::default();
        let mut complete = BTreeSet::new();
        let mut runs = 0;
        loop {
            let (trace, blocked) = simulate_asleep(programs, &next);
            runs += 1;
            explorer.record(&trace).unwrap();
            if !blocked {
                assert!(
                    complete.insert(trace.choices()),
                    "ran twice: {:?}",
                    trace.choices()
                );
            }
            match explorer.next_schedule() {
                Some(following) => next = following,
                None => return (complete, runs),
            }
        }
    }

    #[test]
    fn independent_threads_run_once() {
        let (runs, count) = explore(&[vec![(1, true), (2, true)], vec![(3, true), (4, false)]]);
        assert_eq!((runs.len(), count), (1, 1));
    }

    #[test]
    fn two_writes_of_one_object_run_both_orders() {
        let (runs, _) = explore(&[vec![(1, true)], vec![(1, true)]]);
        assert_eq!(runs, BTreeSet::from([vec![0, 1], vec![1, 0]]));
    }

    #[test]
    fn reads_commute() {
        let (runs, _) = explore(&[vec![(1, false)], vec![(1, false)], vec![(1, false)]]);
        assert_eq!(runs.len(), 1);
    }

    #[test]
    fn three_writers_run_every_order() {
        let (runs, _) = explore(&[vec![(1, true)], vec![(1, true)], vec![(1, true)]]);
        assert_eq!(runs.len(), 6);
    }

    #[test]
    fn each_order_of_the_dependent_pairs_runs_once() {
        // Two independent pairs of racing writes (objects 1 and 2) and a
        // private object each: 2 x 2 classes.
        let programs = [
            vec![(9, true), (1, true), (2, true)],
            vec![(1, true), (8, true), (2, true)],
        ];
        let (runs, count) = explore(&programs);
        let orders: BTreeSet<(bool, bool)> = runs
            .iter()
            .map(|choices| {
                // Which thread wrote object 1 first and object 2 first.
                let mut at = [0usize; 2];
                let mut first = [None, None];
                for &t in choices {
                    let (object, _) = programs[t as usize][at[t as usize]];
                    at[t as usize] += 1;
                    if object <= 2 && first[object as usize - 1].is_none() {
                        first[object as usize - 1] = Some(t);
                    }
                }
                (first[0] == Some(0), first[1] == Some(0))
            })
            .collect();
        assert_eq!(orders.len(), 4, "{runs:?}");
        assert_eq!(runs.len(), 4, "{runs:?}");
        assert!(count <= 6, "{count} runs");
    }

    #[test]
    fn trace_round_trips_through_text() {
        let text = "create 0 by -1\ncreate 1 by -1\nstep 0 chose 1\nthread 0 0 wait 1 a0:r\n\
                    thread 1 1 notify 1 a0:w\ncreate 2 by 1\nstep 1 chose 0\nthread 0 1 wait 1 a0:r\n\
                    thread 2 1 start 0\n";
        let trace = Trace::parse(text).unwrap();
        assert_eq!(trace.choices(), vec![1, 0]);
        assert_eq!(
            trace.steps[0].pending[1].accesses,
            vec![Access {
                object: 0xa0,
                write: true,
                awaits: false
            }]
        );
        assert_eq!(
            trace.creations[2],
            Creation {
                thread: 2,
                creator: Some(1),
                step: 1
            }
        );
        assert!(!trace.steps[0].pending[0].enabled);
        for bad in [
            "step 1 chose 0",
            "thread 0 1 wait 2 a0:r",
            "thread 0 2 wait 0",
            "frob",
        ] {
            let err = Trace::parse(bad).unwrap_err();
            assert_eq!(err.line, 1, "{bad}");
        }
    }

    #[test]
    fn an_awaited_write_is_not_reversed() {
        // Thread 1 starts after thread 0's end and then joins it: a join
        // (`a`) cannot run before the end, a plain read (`r`) could.
        let trace = |mode: &str| {
            Trace::parse(&format!(
                "create 0 by -1\ncreate 1 by -1\nstep 0 chose 0\nthread 0 1 end 1 10:w\n\
                 thread 1 1 start 0\nstep 1 chose 1\nthread 1 1 start 0\n\
                 step 2 chose 1\nthread 1 1 join 1 10:{mode}\n"
            ))
            .unwrap()
        };
        let mut explorer = Explorer::new();
        explorer.record(&trace("a")).unwrap();
        assert_eq!(explorer.next_schedule(), None);
        let mut explorer = Explorer::new();
        explorer.record(&trace("r")).unwrap();
        assert_eq!(
            explorer.next_schedule().map(|next| next.choices),
            Some(vec![1])
        );
    }

    #[test]
    fn a_schedule_not_followed_is_an_error() {
        let mut explorer = Explorer::new();
        explorer
            .record(&simulate(&[vec![(1, true)], vec![(1, true)]], &[]))
            .unwrap();
        assert_eq!(
            explorer.next_schedule(),
            Some(Next {
                choices: vec![1],
                asleep: vec![]
            })
        );
        let err = explorer
            .record(&simulate(&[vec![(1, true)], vec![(1, true)]], &[0]))
            .unwrap_err();
        assert!(
            err.0.contains("did not follow its schedule at step 0"),
            "{err}"
        );
    }
}
