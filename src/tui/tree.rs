//! The flat collapsible tree shared by the directory and outline panes.
//!
//! Nodes are stored in pre-order with their depth; a node's subtree is the run of following
//! nodes that are deeper. Folding, filtering and selection are index arithmetic over that
//! vector, and the visible rows are recomputed only when the shape changes.

/// Something a tree row can show and a filter can match.
pub trait Item {
    /// The text the fuzzy filter matches against.
    fn key(&self) -> &str;
}

/// One row of the tree.
#[derive(Debug, Clone)]
pub struct Node<T> {
    pub item: T,
    pub depth: usize,
    pub expanded: bool,
    pub has_children: bool,
}

/// A pre-order tree with folding, a selection, a scroll offset and an optional filter.
#[derive(Debug, Clone)]
pub struct Tree<T> {
    nodes: Vec<Node<T>>,
    visible: Vec<usize>,
    /// Index into `nodes` of the selected node (meaningful only when not empty).
    selected: usize,
    /// First visible row shown.
    pub offset: usize,
    filter: Option<Filter>,
}

/// A live filter: the query and which nodes match it.
#[derive(Debug, Clone, Default)]
struct Filter {
    query: String,
    /// Nodes that match the query themselves.
    matches: Vec<bool>,
    /// Matches and their ancestors: the rows shown while filtering.
    shown: Vec<bool>,
}

impl<T: Item> Tree<T> {
    /// Builds a tree from `(depth, item)` pairs in pre-order; nodes up to `open_depth` start open.
    pub fn new(items: Vec<(usize, T)>, open_depth: usize) -> Tree<T> {
        let depths: Vec<usize> = items.iter().map(|(d, _)| *d).collect();
        let nodes = items
            .into_iter()
            .enumerate()
            .map(|(i, (depth, item))| Node {
                item,
                depth,
                expanded: depth < open_depth,
                has_children: depths.get(i + 1).is_some_and(|next| *next > depth),
            })
            .collect();
        let mut tree = Tree {
            nodes,
            visible: Vec::new(),
            selected: 0,
            offset: 0,
            filter: None,
        };
        tree.refresh();
        tree
    }

    pub fn nodes(&self) -> &[Node<T>] {
        &self.nodes
    }

    /// Indices of the rows shown, in order.
    pub fn visible(&self) -> &[usize] {
        &self.visible
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The selected node, if any.
    pub fn selected(&self) -> Option<&Node<T>> {
        self.nodes.get(self.selected)
    }

    pub fn selected_index(&self) -> usize {
        self.selected
    }

    /// The selected node's row among the visible ones.
    pub fn selected_row(&self) -> Option<usize> {
        self.visible.iter().position(|&i| i == self.selected)
    }

    /// The active filter query, if any.
    pub fn filter_query(&self) -> Option<&str> {
        self.filter.as_ref().map(|f| f.query.as_str())
    }

    /// Whether node `index` matches the active filter (false without one).
    pub fn is_match(&self, index: usize) -> bool {
        self.filter
            .as_ref()
            .is_some_and(|f| f.matches.get(index).copied().unwrap_or(false))
    }

    /// Recomputes the visible rows after folding or filtering changed.
    fn refresh(&mut self) {
        self.visible.clear();
        if let Some(filter) = &self.filter {
            self.visible = (0..self.nodes.len()).filter(|&i| filter.shown[i]).collect();
            self.fix_selection();
            return;
        }
        let mut skip_deeper_than: Option<usize> = None;
        for (i, node) in self.nodes.iter().enumerate() {
            if let Some(depth) = skip_deeper_than {
                if node.depth > depth {
                    continue;
                }
                skip_deeper_than = None;
            }
            self.visible.push(i);
            if node.has_children && !node.expanded {
                skip_deeper_than = Some(node.depth);
            }
        }
        self.fix_selection();
    }

    /// Moves the selection to the next visible row when its node is hidden.
    fn fix_selection(&mut self) {
        if !self.visible.is_empty() && !self.visible.contains(&self.selected) {
            let next = self.visible.iter().position(|&i| i > self.selected);
            let row = next.unwrap_or(self.visible.len() - 1);
            self.selected = self.visible[row];
        }
    }

    /// Moves the selection by `delta` visible rows, clamped.
    pub fn move_by(&mut self, delta: isize) {
        let Some(row) = self.selected_row() else {
            return;
        };
        let last = self.visible.len().saturating_sub(1) as isize;
        let target = (row as isize + delta).clamp(0, last) as usize;
        self.selected = self.visible[target];
    }

    /// Selects the first (`false`) or last (`true`) visible row.
    pub fn move_to_end(&mut self, last: bool) {
        let pick = if last {
            self.visible.last()
        } else {
            self.visible.first()
        };
        if let Some(&index) = pick {
            self.selected = index;
        }
    }

    /// Selects visible row `row` if it exists.
    pub fn select_row(&mut self, row: usize) {
        if let Some(&index) = self.visible.get(row) {
            self.selected = index;
        }
    }

    /// Selects node `index`, opening its ancestors so that it shows.
    pub fn select(&mut self, index: usize) {
        if index >= self.nodes.len() {
            return;
        }
        let mut depth = self.nodes[index].depth;
        for i in (0..index).rev() {
            if self.nodes[i].depth < depth {
                self.nodes[i].expanded = true;
                depth = self.nodes[i].depth;
            }
        }
        self.selected = index;
        self.refresh();
    }

    /// The parent of node `index`.
    pub fn parent(&self, index: usize) -> Option<usize> {
        let depth = self.nodes.get(index)?.depth;
        (0..index).rev().find(|&i| self.nodes[i].depth < depth)
    }

    /// Opens (`true`) or closes the selected node; returns whether anything changed.
    pub fn set_expanded(&mut self, open: bool) -> bool {
        let Some(node) = self.nodes.get_mut(self.selected) else {
            return false;
        };
        if !node.has_children || node.expanded == open {
            return false;
        }
        node.expanded = open;
        self.refresh();
        true
    }

    /// Toggles the selected node.
    pub fn toggle(&mut self) {
        let open = self.selected().is_some_and(|n| !n.expanded);
        self.set_expanded(open);
    }

    /// Opens every node shallower than `depth` and closes the rest.
    pub fn expand_to_depth(&mut self, depth: usize) {
        for node in &mut self.nodes {
            node.expanded = node.depth + 1 < depth;
        }
        self.refresh();
    }

    /// Opens every node.
    pub fn expand_all(&mut self) {
        self.expand_to_depth(usize::MAX);
    }

    /// Sets or clears the filter; an empty query clears it. Matching nodes and their
    /// ancestors stay visible.
    pub fn set_filter(&mut self, query: &str) {
        if query.is_empty() {
            self.filter = None;
            self.refresh();
            return;
        }
        let direct: Vec<bool> = self
            .nodes
            .iter()
            .map(|n| fuzzy_match(query, n.item.key()))
            .collect();
        // One pass with the stack of open ancestors marks every match's ancestors.
        let mut matches = direct.clone();
        let mut ancestors: Vec<usize> = Vec::new();
        for (i, node) in self.nodes.iter().enumerate() {
            while ancestors
                .last()
                .is_some_and(|&a| self.nodes[a].depth >= node.depth)
            {
                ancestors.pop();
            }
            if direct[i] {
                for &a in ancestors.iter().rev() {
                    if matches[a] {
                        break;
                    }
                    matches[a] = true;
                }
            }
            ancestors.push(i);
        }
        self.filter = Some(Filter {
            query: query.to_string(),
            matches: direct.clone(),
            shown: matches,
        });
        self.refresh();
        if let Some(first) = self.visible.iter().copied().find(|&i| direct[i]) {
            if !direct.get(self.selected).copied().unwrap_or(false) {
                self.selected = first;
            }
        }
    }

    /// Moves to the next (`forward`) or previous direct filter match, wrapping.
    pub fn next_match(&mut self, forward: bool) {
        let hits: Vec<usize> = self
            .visible
            .iter()
            .copied()
            .filter(|&i| self.is_match(i))
            .collect();
        let pick = if forward {
            hits.iter().find(|&&i| i > self.selected).or(hits.first())
        } else {
            hits.iter()
                .rev()
                .find(|&&i| i < self.selected)
                .or(hits.last())
        };
        if let Some(&index) = pick {
            self.selected = index;
        }
    }

    /// The selected match's place among the visible matches and their number (`2/5`), while
    /// a filter is active.
    pub fn match_position(&self) -> Option<(usize, usize)> {
        self.filter.as_ref()?;
        let hits: Vec<usize> = self
            .visible
            .iter()
            .copied()
            .filter(|&i| self.is_match(i))
            .collect();
        let at = hits
            .iter()
            .position(|&i| i == self.selected)
            .map_or(0, |p| p + 1);
        Some((at, hits.len()))
    }

    /// Keeps the selected row inside a window of `height` rows.
    pub fn scroll_into_view(&mut self, height: usize) {
        let Some(row) = self.selected_row() else {
            self.offset = 0;
            return;
        };
        let height = height.max(1);
        if row < self.offset {
            self.offset = row;
        } else if row >= self.offset + height {
            self.offset = row + 1 - height;
        }
        let max_offset = self.visible.len().saturating_sub(height);
        self.offset = self.offset.min(max_offset);
    }
}

/// Case-insensitive subsequence match (an upper-case letter in the query must match exactly).
pub fn fuzzy_match(query: &str, text: &str) -> bool {
    let mut chars = text.chars();
    query.chars().all(|q| {
        chars.any(|t| {
            if q.is_uppercase() {
                t == q
            } else {
                t.to_lowercase().eq(q.to_lowercase())
            }
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Item for &'static str {
        fn key(&self) -> &str {
            self
        }
    }

    fn sample() -> Tree<&'static str> {
        // a { b { c } d } e
        Tree::new(vec![(0, "a"), (1, "b"), (2, "c"), (1, "d"), (0, "e")], 1)
    }

    fn shown(tree: &Tree<&'static str>) -> Vec<&'static str> {
        tree.visible()
            .iter()
            .map(|&i| tree.nodes()[i].item)
            .collect()
    }

    #[test]
    fn folding_and_depth() {
        let mut tree = sample();
        assert_eq!(shown(&tree), ["a", "b", "d", "e"]);
        tree.expand_all();
        assert_eq!(shown(&tree), ["a", "b", "c", "d", "e"]);
        tree.expand_to_depth(0);
        assert_eq!(shown(&tree), ["a", "e"]);
        tree.move_to_end(true);
        tree.select(2);
        assert_eq!(shown(&tree), ["a", "b", "c", "d", "e"]);
        assert_eq!(tree.selected().map(|n| n.item), Some("c"));
        tree.move_by(-2);
        assert_eq!(tree.selected().map(|n| n.item), Some("a"));
        tree.toggle();
        assert_eq!(shown(&tree), ["a", "e"]);
        tree.move_by(10);
        assert_eq!(tree.selected().map(|n| n.item), Some("e"));
    }

    #[test]
    fn closing_moves_selection_out_of_hidden_rows() {
        let mut tree = sample();
        tree.select(3);
        tree.expand_to_depth(1);
        assert_eq!(tree.selected().map(|n| n.item), Some("e"));
    }

    #[test]
    fn filter_keeps_ancestors_and_cycles_matches() {
        let mut tree = sample();
        tree.set_filter("c");
        assert_eq!(shown(&tree), ["a", "b", "c"]);
        assert_eq!(tree.selected().map(|n| n.item), Some("c"));
        tree.set_filter("");
        assert_eq!(shown(&tree), ["a", "b", "d", "e"]);
        let mut tree = Tree::new(vec![(0, "ab"), (0, "x"), (0, "ba")], 1);
        tree.set_filter("a");
        tree.next_match(true);
        assert_eq!(tree.selected().map(|n| n.item), Some("ba"));
        tree.next_match(true);
        assert_eq!(tree.selected().map(|n| n.item), Some("ab"));
        tree.next_match(false);
        assert_eq!(tree.selected().map(|n| n.item), Some("ba"));
    }

    #[test]
    fn fuzzy_is_subsequence_and_smart_case() {
        assert!(fuzzy_match("gtu", "get_user"));
        assert!(!fuzzy_match("ug", "get_u"));
        assert!(fuzzy_match("U", "get_User"));
        assert!(!fuzzy_match("U", "get_user"));
    }

    #[test]
    fn scrolling_keeps_selection_visible() {
        let items: Vec<(usize, &'static str)> = (0..50).map(|_| (0, "x")).collect();
        let mut tree = Tree::new(items, 1);
        tree.move_by(30);
        tree.scroll_into_view(10);
        assert_eq!(tree.offset, 21);
        tree.move_to_end(false);
        tree.scroll_into_view(10);
        assert_eq!(tree.offset, 0);
        let mut empty: Tree<&'static str> = Tree::new(Vec::new(), 1);
        empty.move_by(3);
        empty.toggle();
        empty.set_filter("x");
        assert!(empty.selected().is_none());
    }
}
