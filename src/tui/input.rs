//! The terminal's input on a thread of its own, sent as [`Message::Input`] on the channel every
//! background job reports on, so that the event loop waits on one receiver for everything.
//! The reader can be paused while a program run outside the viewer (the editor, a suspended
//! shell) owns the terminal: it must not take that program's keys.

use super::jobs::Message;
use ratatui::crossterm::event;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// How long the reader waits for input before it looks whether it was paused.
const LOOK_EVERY: Duration = Duration::from_millis(25);

/// The running reader; it ends when the channel's receiver is gone.
pub struct Reader {
    paused: Arc<AtomicBool>,
    /// Held by the reader while it waits for and reads an event.
    reading: Arc<Mutex<()>>,
}

/// While this lives the reader reads nothing.
pub struct Paused<'a> {
    paused: &'a AtomicBool,
    _reading: Option<MutexGuard<'a, ()>>,
}

impl Drop for Paused<'_> {
    fn drop(&mut self) {
        self.paused.store(false, Ordering::Release);
    }
}

impl Reader {
    pub fn spawn(tx: Sender<Message>) -> Reader {
        let paused = Arc::new(AtomicBool::new(false));
        let reading = Arc::new(Mutex::new(()));
        let (thread_paused, thread_reading) = (paused.clone(), reading.clone());
        std::thread::spawn(move || loop {
            if thread_paused.load(Ordering::Acquire) {
                std::thread::sleep(LOOK_EVERY);
                continue;
            }
            // A poisoned lock only means a pause panicked; reading goes on.
            let held = thread_reading.lock().unwrap_or_else(|p| p.into_inner());
            if thread_paused.load(Ordering::Acquire) {
                continue;
            }
            let event = match event::poll(LOOK_EVERY) {
                Ok(false) => continue,
                Ok(true) => event::read(),
                Err(err) => Err(err),
            };
            drop(held);
            let failed = event.is_err();
            if tx.send(Message::Input(event)).is_err() || failed {
                return;
            }
        });
        Reader { paused, reading }
    }

    /// Stops reading until the returned guard is dropped; returns once no read is under way.
    pub fn pause(&self) -> Paused<'_> {
        self.paused.store(true, Ordering::Release);
        let guard = self.reading.lock().unwrap_or_else(|p| p.into_inner());
        Paused {
            paused: &self.paused,
            _reading: Some(guard),
        }
    }
}
