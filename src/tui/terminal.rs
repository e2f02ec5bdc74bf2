//! The terminal guard: raw mode, the alternate screen, a hidden cursor and mouse capture are
//! turned on by [`Guard::enter`] and undone on every way out:
//! - a normal return drops the guard, and a panic runs the chained hook first;
//! - SIGTERM, SIGINT, SIGHUP and SIGQUIT (sent by `kill`: in raw mode the keys do not send
//!   them) restore the terminal and exit with 128 + the signal's number, as a shell reports it;
//! - a terminal that goes away without a SIGHUP reaching us (started under `setsid`, `sudo`,
//!   `runuser`) is seen by a thread waiting for the hang-up on the terminal's descriptor, which
//!   exits as SIGHUP would. crossterm 0.28 cannot tell us: its reader retries a dead terminal's
//!   `read` forever inside `event::poll` (crossterm issue #793), so the event loop never sees an
//!   error to act on.
//!
//! Both watchers run on their own threads and end the process with [`std::process::exit`]; while
//! the terminal is lent to an editor or the shell (Ctrl-Z) they leave its modes alone.

use std::io;
use std::sync::atomic::{AtomicBool, Ordering};

use ratatui::crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::terminal::{
    disable_raw_mode, enable_raw_mode, EnterAlternateScreen, LeaveAlternateScreen,
};
use ratatui::crossterm::{cursor, execute};

/// Whether the viewer's modes are on, so a watcher knows there is something to undo.
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// The exit code for a hang-up: 128 + SIGHUP, as a shell reports a process SIGHUP ended.
const HANGUP_EXIT: i32 = 128 + 1;

/// Raw mode, the alternate screen and mouse capture, undone on drop, on a panic, on a
/// terminating signal and when the terminal goes away.
pub struct Guard;

impl Guard {
    /// Turns the viewer's modes on and starts the watchers.
    pub fn enter() -> io::Result<Guard> {
        if let Err(err) = setup() {
            // Whatever part of the setup took effect is undone before the error is shown.
            restore();
            return Err(err);
        }
        install_panic_hook();
        // Without a watcher the viewer still works; only the clean exit on that event is lost.
        let _ = watch_signals();
        let _ = watch_hangup();
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
    #[cfg(unix)]
    let _ = signal_hook::low_level::raise(signal_hook::consts::SIGTSTP);
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

/// Starts the thread that exits when the terminal hangs up. It waits on the descriptor
/// crossterm reads keys from (standard input when that is the terminal, else `/dev/tty`) and
/// wakes only when input arrives, to check for the hang-up: no polling, no timer.
#[cfg(unix)]
fn watch_hangup() -> io::Result<()> {
    use mio::unix::SourceFd;
    use mio::{Events, Interest, Poll, Token};
    use std::io::IsTerminal;
    use std::os::fd::{AsFd, AsRawFd, OwnedFd};

    // A duplicate, owned by the thread, so the descriptor stays open as long as it is watched.
    let tty: OwnedFd = match io::stdin().is_terminal() {
        true => io::stdin().as_fd().try_clone_to_owned()?,
        false => std::fs::File::open("/dev/tty")?.into(),
    };
    let mut poll = Poll::new()?;
    let fd = tty.as_raw_fd();
    poll.registry()
        .register(&mut SourceFd(&fd), Token(0), Interest::READABLE)?;
    std::thread::Builder::new()
        .name("hangup".into())
        .spawn(move || {
            let _tty = tty;
            let mut events = Events::with_capacity(4);
            loop {
                match poll.poll(&mut events, None) {
                    Ok(()) => {}
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(_) => return,
                }
                if events.iter().any(|e| e.is_read_closed() || e.is_error()) {
                    leave(HANGUP_EXIT);
                }
            }
        })?;
    Ok(())
}

#[cfg(not(unix))]
fn watch_signals() -> io::Result<()> {
    Ok(())
}

#[cfg(not(unix))]
fn watch_hangup() -> io::Result<()> {
    Ok(())
}
