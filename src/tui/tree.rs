//! The flat collapsible tree shared by the directory and outline panes.
//!
//! Nodes are stored in pre-order with their depth; a node's subtree is the run of following
//! nodes that are deeper. Folding, filtering and selection are index arithmetic over that
//! vector, and the visible rows are recomputed only when the shape changes.

/// Something a tree row can show and a filter can match.
pub trait Item {
    /// The text the fuzzy filter matches against.
    fn key(&self) -> &str;

    /// Whether the row can open although its children are not loaded yet (a directory not
    /// listed yet).
    fn expandable(&self) -> bool {
        false
    }
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
    /// The selection is the filter's own pick (the first match in tree order), not one the
    /// user moved to: rows arriving later (the directory filter's walk) move it to the new
    /// first match, so the same query ends on the same row however the walk was timed.
    auto: bool,
}

impl<T: Item> Tree<T> {
    /// Builds a tree from `(depth, item)` pairs in pre-order; nodes up to `open_depth` start open.
    pub fn new(items: Vec<(usize, T)>, open_depth: usize) -> Tree<T> {
        let depths: Vec<usize> = items.iter().map(|(d, _)| *d).collect();
        let nodes = items
            .into_iter()
            .enumerate()
            .map(|(i, (depth, item))| Node {
                expanded: depth < open_depth,
                has_children: depths.get(i + 1).is_some_and(|next| *next > depth)
                    || item.expandable(),
                item,
                depth,
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

    /// Whether node `index` shows its children: open, or (while filtering) with a match
    /// below it in sight.
    pub fn shows_children(&self, index: usize) -> bool {
        let Some(node) = self.nodes.get(index) else {
            return false;
        };
        if self.filter.is_none() {
            return node.has_children && node.expanded;
        }
        let Ok(row) = self.visible.binary_search(&index) else {
            return false;
        };
        self.visible
            .get(row + 1)
            .is_some_and(|&next| self.nodes[next].depth > node.depth)
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
        self.user_chose();
    }

    /// The user moved the selection: a filter no longer picks it.
    fn user_chose(&mut self) {
        if let Some(filter) = &mut self.filter {
            filter.auto = false;
        }
    }

    /// Selects visible row `row` if it exists.
    pub fn select_row(&mut self, row: usize) {
        if let Some(&index) = self.visible.get(row) {
            self.selected = index;
            self.user_chose();
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

    /// The index just past node `index`'s subtree.
    fn subtree_end(&self, index: usize) -> usize {
        let depth = self.nodes.get(index).map_or(0, |n| n.depth);
        (index + 1..self.nodes.len())
            .find(|&i| self.nodes[i].depth <= depth)
            .unwrap_or(self.nodes.len())
    }

    /// Replaces node `index`'s subtree with `children` (one level, loaded lazily) and opens
    /// it. The selection stays on the same node, or on `index` if it was inside.
    pub fn set_children(&mut self, index: usize, children: Vec<T>) {
        let Some(depth) = self.nodes.get(index).map(|n| n.depth) else {
            return;
        };
        let end = self.subtree_end(index);
        let count = children.len();
        let fresh = children.into_iter().map(|item| Node {
            depth: depth + 1,
            expanded: false,
            has_children: item.expandable(),
            item,
        });
        self.nodes.splice(index + 1..end, fresh);
        self.selected = match self.selected {
            s if s > index && s < end => index,
            s if s >= end => s + count + index + 1 - end,
            s => s,
        };
        let node = &mut self.nodes[index];
        node.has_children = count > 0;
        node.expanded = true;
        self.reapply_filter();
    }

    /// Gives children to every node for which `children_of` has some (loaded elsewhere, as
    /// the directory filter's listings are), in one pass over the tree: each node gets them
    /// closed, and they are offered to `children_of` in turn. The selection stays on its
    /// node; the filter is applied again. Returns whether any node got children.
    pub fn graft(&mut self, mut children_of: impl FnMut(&mut T) -> Option<Vec<T>>) -> bool {
        let old = std::mem::take(&mut self.nodes);
        let mut out = Vec::with_capacity(old.len());
        // A stack that pops in pre-order: the old nodes, with grafted children pushed on top.
        let mut work: Vec<(Option<usize>, Node<T>)> = old
            .into_iter()
            .enumerate()
            .rev()
            .map(|(i, node)| (Some(i), node))
            .collect();
        let mut grafted = false;
        let mut selected = 0;
        while let Some((origin, mut node)) = work.pop() {
            if origin == Some(self.selected) {
                selected = out.len();
            }
            if let Some(children) = children_of(&mut node.item) {
                grafted = true;
                let depth = node.depth + 1;
                node.has_children = !children.is_empty();
                node.expanded = false;
                work.extend(children.into_iter().rev().map(|item| {
                    let node = Node {
                        depth,
                        expanded: false,
                        has_children: item.expandable(),
                        item,
                    };
                    (None, node)
                }));
            }
            out.push(node);
        }
        self.nodes = out;
        self.selected = selected;
        self.reapply_filter();
        grafted
    }

    /// Mutable access to node `index`'s item (a row's facts changed).
    pub fn item_mut(&mut self, index: usize) -> Option<&mut T> {
        self.nodes.get_mut(index).map(|n| &mut n.item)
    }

    /// Closes every node whose item `closed` picks (a reload restoring folds).
    pub fn fold_where(&mut self, closed: impl Fn(&T) -> bool) {
        for node in &mut self.nodes {
            if node.has_children && closed(&node.item) {
                node.expanded = false;
            }
        }
        self.refresh();
    }

    fn reapply_filter(&mut self) {
        match self.filter.as_ref().map(|f| f.query.clone()) {
            Some(query) => self.set_filter(&query),
            None => self.refresh(),
        }
    }

    /// Sets or clears the filter; an empty query clears it. Matching nodes and their
    /// ancestors stay visible. Clearing keeps the selected node and opens its parents, so the
    /// match found stays in sight.
    pub fn set_filter(&mut self, query: &str) {
        if query.is_empty() {
            let had_filter = self.filter.take().is_some();
            match had_filter {
                true => self.select(self.selected),
                false => self.refresh(),
            }
            return;
        }
        let direct = self.direct_matches(query);
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
        // The same query keeps a selection the user moved to; a new one, or the filter's
        // own pick, goes to the first match in tree order (a stable order: the same query
        // selects the same row).
        let same = self.filter.as_ref().filter(|f| f.query == query);
        let auto = same.is_none_or(|f| f.auto);
        self.filter = Some(Filter {
            query: query.to_string(),
            matches: direct.clone(),
            shown: matches,
            auto: true,
        });
        self.refresh();
        let on_match = direct.get(self.selected).copied().unwrap_or(false);
        match self.visible.iter().copied().find(|&i| direct[i]) {
            Some(first) if auto || !on_match => self.selected = first,
            _ => self.user_chose(),
        }
    }

    /// Nodes matching `query` themselves: by their key, or, for a query with a `/`, by the
    /// path of keys from the top (`sub07/mod042` finds `sub07/mod042.rs`).
    fn direct_matches(&self, query: &str) -> Vec<bool> {
        if !query.contains('/') {
            return self
                .nodes
                .iter()
                .map(|n| fuzzy_match(query, n.item.key()))
                .collect();
        }
        let mut path: Vec<&str> = Vec::new();
        self.nodes
            .iter()
            .map(|node| {
                path.truncate(node.depth);
                path.push(node.item.key().trim_end_matches('/'));
                fuzzy_match(query, &path.join("/"))
            })
            .collect()
    }

    /// The visible rows that match the filter themselves, top to bottom.
    fn visible_matches(&self) -> Vec<usize> {
        self.visible
            .iter()
            .copied()
            .filter(|&i| self.is_match(i))
            .collect()
    }

    /// Moves to the next (`forward`) or previous direct filter match, wrapping.
    pub fn next_match(&mut self, forward: bool) {
        let hits = self.visible_matches();
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
            self.user_chose();
        }
    }

    /// The selected match's place among the visible matches and their number (`2/5`), while
    /// a filter is active.
    pub fn match_position(&self) -> Option<(usize, usize)> {
        self.filter.as_ref()?;
        let hits = self.visible_matches();
        let at = hits
            .iter()
            .position(|&i| i == self.selected)
            .map_or(0, |p| p + 1);
        Some((at, hits.len()))
    }

    /// Scrolls so that the selected row is a third of the way down a window of `height`
    /// rows, when it is out of sight (after a jump: a row at the very edge is easy to miss).
    pub fn scroll_to_show(&mut self, height: usize) {
        let Some(row) = self.selected_row() else {
            return;
        };
        let height = height.max(1);
        if row < self.offset || row >= self.offset + height {
            self.offset = row.saturating_sub(height / 3);
        }
        self.scroll_into_view(height);
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
mod tests;
