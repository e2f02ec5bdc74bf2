//! What every fuzz target checks, on any bytes: outlining never panics, hangs or overflows a
//! worker thread's stack; the outline keeps the model's invariants
//! (`outliner::outline::invariants::check`); the JSON rendering, parsed back with serde_json's
//! default limits, keeps the contract and the text rendering has one line per shown entry
//! (`outliner::internals::check_renderings`, the same check the property tests run).
//!
//! An input is one selector byte, then the file's bytes (decoded lossily, as the reader does).
//! The selector picks the language among the target's family (`selector % n`), the language's
//! variant (`0x80`: JSX for JavaScript/TypeScript, a Rakefile for Ruby; other languages have
//! none), the reader's "only a prefix was read" path (`0x40`) and the budget (`0x30`).

use outliner::internals::check_renderings;
use outliner::outline::invariants;
use outliner::outline::select::Budget;
use outliner::parse::{self, ParseOptions};
use outliner::Language;
use std::sync::mpsc;
use std::sync::{Mutex, OnceLock};

/// The stack a directory-mode worker thread gets (Rust's default for spawned threads): parsing
/// must fit in it, so the checks run on a thread of exactly this size.
const WORKER_STACK: usize = 2 * 1024 * 1024;

/// Checks one fuzz input for a target whose family holds `languages`.
pub fn check_input(languages: &'static [Language], data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let language = languages[usize::from(selector) % languages.len()];
    let rest = rest.to_vec();
    on_worker_stack(Box::new(move || check(language, selector, &rest)));
}

fn check(language: Language, selector: u8, bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    let options = ParseOptions {
        language,
        jsx: selector & 0x80 != 0,
        rake: selector & 0x80 != 0,
    };
    let outline = if selector & 0x40 != 0 {
        parse::outline_file(&text, text.len() + 1, options)
    } else {
        parse::outline_text(&text, options)
    };
    if let Err(problem) = invariants::check(&outline) {
        panic!("{language}: {problem}");
    }
    let budget = match (selector >> 4) & 0b11 {
        0 => Budget::default(),
        1 => Budget {
            max_depth: Some(1),
            max_nodes: None,
        },
        2 => Budget {
            max_depth: None,
            max_nodes: Some(bytes.len() % 7),
        },
        _ => Budget {
            max_depth: Some(2),
            max_nodes: Some(5),
        },
    };
    if let Err(problem) = check_renderings(&outline, budget, &parse::lines(&text)) {
        panic!("{language}: {problem}");
    }
}

type Job = Box<dyn FnOnce() + Send>;

/// Runs `job` on a long-lived thread with [`WORKER_STACK`] bytes of stack (a thread per input
/// would cost more than most parses). A panic there aborts the process, as libFuzzer's hook
/// makes every panic do, so crashes are caught as on the main thread.
fn on_worker_stack(job: Job) {
    static WORKER: OnceLock<Mutex<(mpsc::Sender<Job>, mpsc::Receiver<()>)>> = OnceLock::new();
    let worker = WORKER.get_or_init(|| {
        let (jobs, job_queue) = mpsc::channel::<Job>();
        let (done, finished) = mpsc::channel();
        std::thread::Builder::new()
            .name("parse-worker".into())
            .stack_size(WORKER_STACK)
            .spawn(move || {
                for job in job_queue {
                    job();
                    if done.send(()).is_err() {
                        break;
                    }
                }
            })
            .unwrap_or_else(|e| panic!("spawn worker: {e}"));
        Mutex::new((jobs, finished))
    });
    let channels = worker.lock().unwrap_or_else(|e| e.into_inner());
    if channels.0.send(job).is_err() || channels.1.recv().is_err() {
        panic!("the parse worker died");
    }
}
