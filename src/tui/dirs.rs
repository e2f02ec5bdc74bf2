//! The directory pane in action: listing a directory when it is opened, following links
//! (only on Enter, only inside `--root`), revealing a file opened from elsewhere (a jump),
//! and reloading with every opened directory kept open.

use super::app::{App, Focus};
use super::files::{self, DirItem};
use super::reach::{Reach, ReachStatus, Reached};
use super::tree::Tree;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

impl App {
    /// Lists the root: the pane's first level, every directory closed.
    pub fn list_root(&mut self) {
        let options = self.walk_options(true);
        let rows = files::list(&self.root, &self.root, &options, self.snapshot.as_deref());
        self.dir = Tree::new(rows.into_iter().map(|row| (0, row)).collect(), 0);
    }

    /// Lists the directory at row `index` below it and opens it (a link's target is listed
    /// under the link's path).
    fn list_at(&mut self, index: usize, target: &Path) {
        let Some(item) = self.dir.nodes().get(index).map(|n| n.item.clone()) else {
            return;
        };
        let options = self.walk_options(true);
        let rows = files::list(target, &item.path, &options, self.snapshot.as_deref());
        if let Some(item) = self.dir.item_mut(index) {
            item.listed = true;
        }
        self.dir.set_children(index, rows);
    }

    /// Opens the directory at row `index`, listing it the first time. A link opens only when
    /// `follow` (Enter) and only to a place inside `--root`; otherwise the status bar says why.
    /// Returns whether the row was a directory.
    pub fn open_dir(&mut self, index: usize, follow: bool) -> bool {
        let Some(item) = self.dir.nodes().get(index).map(|n| n.item.clone()) else {
            return false;
        };
        if !item.is_dir {
            return false;
        }
        if item.listed {
            self.dir.select(index);
            self.dir.set_expanded(true);
            return true;
        }
        let target = match &item.link {
            None => item.path.clone(),
            Some(_) if !follow => {
                self.message = Some(format!("{}: Enter follows the link", item.name));
                return true;
            }
            Some(_) => match self.follow(&item) {
                Ok(target) => target,
                Err(why) => {
                    self.message = Some(why);
                    return true;
                }
            },
        };
        self.list_at(index, &target);
        true
    }

    /// Where the link `item` leads, if it may be followed. Under `--root` a link that leads
    /// outside is refused in the command line's words whether its target exists, cannot be
    /// read or is there, so the viewer tells nothing more about the outside than they do.
    pub fn follow(&self, item: &DirItem) -> Result<PathBuf, String> {
        if let Some(root) = &self.confine {
            crate::source::check_inside(&item.path, root).map_err(|e| e.to_string())?;
        }
        item.path
            .canonicalize()
            .map_err(|e| format!("{}: {e}", item.name))
    }

    /// Opens the directory pane down to `path` (listing each directory on the way) and
    /// selects it, so that a file opened by a jump is shown where it lives.
    pub fn reveal(&mut self, path: &Path) {
        let Ok(rel) = path.strip_prefix(&self.root) else {
            return;
        };
        let mut at = self.root.clone();
        let mut found = None;
        for part in rel.components() {
            at.push(part);
            let Some(index) = self.dir.nodes().iter().position(|n| n.item.path == at) else {
                break;
            };
            found = Some(index);
            let node = &self.dir.nodes()[index];
            if node.item.is_dir && !node.item.listed && node.item.link.is_none() {
                let target = node.item.path.clone();
                self.list_at(index, &target);
            }
        }
        if let Some(index) = found {
            self.dir.select(index);
        }
    }

    /// Takes the directory filter's `query` below the listed directories: a walk of the
    /// whole tree (started on first use, on a thread) finds the directories holding matches,
    /// and their listings arrive as [`super::jobs::Message::Reached`].
    pub fn reach_for(&mut self, query: &str) {
        if self.reach.is_none() {
            let generation = self.jobs.next_id();
            self.reach = Some(Reach::start(
                self.root.clone(),
                self.walk_options(true),
                self.snapshot.clone(),
                generation,
                self.jobs.tx.clone(),
            ));
            self.reached = ReachStatus::default();
        }
        if let Some(reach) = &self.reach {
            reach.query(query);
        }
    }

    /// Grafts the directories listed for the filter into the pane (closed, so that clearing
    /// the filter opens only the way to the selected match); the preview follows the
    /// selection when a match arriving moved it.
    pub fn graft_reached(&mut self, reached: Reached) {
        if self.reach.as_ref().map(|r| r.generation) != Some(reached.generation) {
            return;
        }
        let before = self.dir.selected().map(|n| n.item.path.clone());
        let mut listings: HashMap<PathBuf, Vec<DirItem>> = reached.listings.into_iter().collect();
        if !listings.is_empty() {
            self.dir.graft(|item| {
                if !item.is_dir || item.listed || item.link.is_some() {
                    return None;
                }
                let rows = listings.remove(&item.path)?;
                item.listed = true;
                Some(rows)
            });
        }
        self.reached = ReachStatus {
            query: reached.query,
            settled: reached.settled,
            capped: reached.capped,
        };
        let after = self.dir.selected().map(|n| n.item.path.clone());
        if after != before && self.focus == Focus::Dir {
            super::action::preview_dir_selection(self);
        }
    }

    /// Re-lists the pane and refreshes git status (on a thread), keeping every opened
    /// directory open and the selected path selected. The filter's walk starts again.
    pub fn reload_dir(&mut self) {
        self.refresh_git();
        self.reach = None;
        self.reached = ReachStatus::default();
        let keep = self.dir.selected().map(|n| n.item.path.clone());
        // Pre-order: a parent is listed again before its children are looked for.
        let opened: Vec<DirItem> = self
            .dir
            .nodes()
            .iter()
            .filter(|n| n.item.listed && n.expanded)
            .map(|n| n.item.clone())
            .collect();
        self.list_root();
        for item in opened {
            let Some(index) = self
                .dir
                .nodes()
                .iter()
                .position(|n| n.item.path == item.path)
            else {
                continue;
            };
            let target = match &item.link {
                Some(_) => match self.follow(&item) {
                    Ok(target) => target,
                    Err(_) => continue,
                },
                None => item.path.clone(),
            };
            self.list_at(index, &target);
        }
        if let Some(path) = keep {
            if let Some(index) = self.dir.nodes().iter().position(|n| n.item.path == path) {
                self.dir.select(index);
            }
        }
    }
}
