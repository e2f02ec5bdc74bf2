//! The terminal guard: raw mode, the alternate screen, a hidden cursor and mouse capture are
//! turned on by [`Guard::enter`] and undone on every way out:
//! - a normal return drops the guard, and a panic runs the chained hook first;
//! - SIGTERM, SIGINT, SIGHUP and SIGQUIT (sent by `kill`: in raw mode the keys do not send
//!   them) restore the terminal and exit with 128 + the signal's number, as a shell reports it.
//!
//! The watcher runs on its own thread and ends the process with [`std::process::exit`]; while
//! the terminal is lent to an editor or the shell (Ctrl-Z) it leaves the terminal's modes alone.

use std::io;
use std::sync::atomic::{AtomicBool, Ordering};

use ratatui::crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::terminal::{
    disable_raw_mode, enable_raw_mode, EnterAlternateScreen, LeaveAlternateScreen,
};
use ratatui::crossterm::{cursor, execute};

/// Whether the viewer's modes are on, so a watcher knows there is something to undo.
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// Raw mode, the alternate screen and mouse capture, undone on drop, on a panic and on a
/// terminating signal.
pub struct Guard;

impl Guard {
    /// Turns the viewer's modes on and starts the signal watcher.
    pub fn enter() -> io::Result<Guard> {
        setup()?;
        install_panic_hook();
        // Without the watcher the viewer still works; only the clean exit on a signal is lost.
        let _ = watch_signals();
        Ok(Guard)
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        restore();
    }
}

/// Turns the viewer's modes on.
pub fn setup() -> io::Result<()> {
    ACTIVE.store(true, Ordering::SeqCst);
    enable_raw_mode()?;
    execute!(
        io::stdout(),
        EnterAlternateScreen,
        EnableMouseCapture,
        cursor::Hide
    )
}

/// Puts the terminal back; safe to call more than once, and errors (a terminal that is gone)
/// are ignored because there is nothing left to put back.
pub fn restore() {
    ACTIVE.store(false, Ordering::SeqCst);
    let _ = disable_raw_mode();
    let _ = execute!(
        io::stdout(),
        DisableMouseCapture,
        LeaveAlternateScreen,
        cursor::Show
    );
}

fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        previous(info);
    }));
}

/// Restores the terminal if the viewer holds it and ends the process with `code`.
fn leave(code: i32) -> ! {
    // Holding stdout keeps the event loop from drawing between the restore and the exit.
    let _stdout = io::stdout().lock();
    if ACTIVE.load(Ordering::SeqCst) {
        restore();
    }
    std::process::exit(code)
}

/// Stops this process the way a shell's Ctrl-Z would; returns once it is continued.
pub fn suspend() {
    let pid = std::process::id().to_string();
    let _ = std::process::Command::new("kill")
        .args(["-TSTP", &pid])
        .status();
}

/// Starts the thread that turns a terminating signal into a restore and an exit.
#[cfg(unix)]
fn watch_signals() -> io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGTERM, SIGINT, SIGHUP, SIGQUIT])?;
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                leave(128 + signal);
            }
        })?;
    Ok(())
}

#[cfg(not(unix))]
fn watch_signals() -> io::Result<()> {
    Ok(())
}
