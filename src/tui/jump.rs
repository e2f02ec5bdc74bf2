//! The jump list, as in vim and helix: every jump to another place (a picked symbol, a search
//! hit, a reference) remembers where it left; Ctrl-O goes back through those places and the
//! forward key comes back. A new jump from the middle of the list drops the places ahead.

use std::path::PathBuf;

/// Places remembered at most; the oldest go first.
const MAX_JUMPS: usize = 100;

/// A place in a file: the preview's cursor and top line (0-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    pub path: PathBuf,
    pub cursor: usize,
    pub top: usize,
}

/// The places jumped from, and where in them the user is.
#[derive(Debug, Clone, Default)]
pub struct JumpList {
    places: Vec<Location>,
    /// The index of the place shown; `places.len()` when at the newest place, not yet kept.
    at: usize,
}

impl JumpList {
    /// Remembers `here` before a jump away from it.
    pub fn push(&mut self, here: Location) {
        self.places.truncate(self.at);
        if self.places.last() != Some(&here) {
            self.places.push(here);
        }
        if self.places.len() > MAX_JUMPS {
            self.places.remove(0);
        }
        self.at = self.places.len();
    }

    /// The place before `here`, if any; `here` is kept so that [`JumpList::forward`] returns.
    pub fn back(&mut self, here: Location) -> Option<Location> {
        if self.at == 0 {
            return None;
        }
        match self.places.get_mut(self.at) {
            Some(slot) => *slot = here,
            None => self.places.push(here),
        }
        self.at -= 1;
        self.places.get(self.at).cloned()
    }

    /// The place after `here` that [`JumpList::back`] left, if any.
    pub fn forward(&mut self, here: Location) -> Option<Location> {
        if self.at + 1 >= self.places.len() {
            return None;
        }
        self.places[self.at] = here;
        self.at += 1;
        self.places.get(self.at).cloned()
    }

    /// How many places are behind and ahead.
    #[cfg(test)]
    pub fn position(&self) -> (usize, usize) {
        let ahead = self.places.len().saturating_sub(self.at + 1);
        (self.at, ahead)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(path: &str, cursor: usize) -> Location {
        Location {
            path: PathBuf::from(path),
            cursor,
            top: cursor,
        }
    }

    #[test]
    fn back_and_forward_return_to_each_place() {
        let mut jumps = JumpList::default();
        assert_eq!(jumps.back(at("a", 1)), None);
        jumps.push(at("a", 1));
        jumps.push(at("b", 2));
        // Now at c.
        assert_eq!(jumps.back(at("c", 3)), Some(at("b", 2)));
        assert_eq!(jumps.back(at("b", 5)), Some(at("a", 1)));
        assert_eq!(jumps.back(at("a", 1)), None);
        assert_eq!(
            jumps.forward(at("a", 1)),
            Some(at("b", 5)),
            "keeps the moved cursor"
        );
        assert_eq!(jumps.forward(at("b", 5)), Some(at("c", 3)));
        assert_eq!(jumps.forward(at("c", 3)), None);
        assert_eq!(jumps.position(), (2, 0));
    }

    #[test]
    fn a_new_jump_drops_the_places_ahead() {
        let mut jumps = JumpList::default();
        jumps.push(at("a", 1));
        jumps.push(at("b", 2));
        assert_eq!(jumps.back(at("c", 3)), Some(at("b", 2)));
        jumps.push(at("b", 2));
        assert_eq!(jumps.forward(at("d", 4)), None);
        assert_eq!(jumps.back(at("d", 4)), Some(at("b", 2)));
        assert_eq!(jumps.back(at("b", 2)), Some(at("a", 1)));
    }

    #[test]
    fn the_list_is_bounded() {
        let mut jumps = JumpList::default();
        for i in 0..MAX_JUMPS * 2 {
            jumps.push(at("a", i));
        }
        assert_eq!(jumps.position(), (MAX_JUMPS, 0));
    }
}
