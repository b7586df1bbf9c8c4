//! The trigger index: which listeners wait for which window or event.

use std::collections::BTreeMap;

use gloam_core::Event;

/// A listener (a card, an ability, a ruleset reaction), numbered by whoever builds the
/// index, usually the loader in declaration order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ListenerId(pub u32);

/// A map from a timing window or event name to the listeners waiting for it, in the order
/// they were added, built once at load so that only listeners are evaluated.
///
/// # Examples
///
/// ```
/// use gloam_dsl::{ListenerId, TriggerIndex};
/// let index = TriggerIndex::build([
///     ("power_step", ListenerId(0)),
///     ("after_attack", ListenerId(1)),
///     ("power_step", ListenerId(2)),
/// ]);
/// assert_eq!(index.listeners("power_step"), &[ListenerId(0), ListenerId(2)]);
/// assert!(index.listeners("round_end").is_empty());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TriggerIndex {
    by_name: BTreeMap<String, Vec<ListenerId>>,
}

impl TriggerIndex {
    /// An index from `(window or event name, listener)` pairs; a listener added twice for
    /// one name is kept once, at its first place.
    pub fn build<I, S>(pairs: I) -> TriggerIndex
    where
        I: IntoIterator<Item = (S, ListenerId)>,
        S: Into<String>,
    {
        let mut by_name: BTreeMap<String, Vec<ListenerId>> = BTreeMap::new();
        for (name, listener) in pairs {
            let listeners = by_name.entry(name.into()).or_default();
            if !listeners.contains(&listener) {
                listeners.push(listener);
            }
        }
        TriggerIndex { by_name }
    }

    /// The listeners of a window or event, in the order they were added.
    pub fn listeners(&self, name: &str) -> &[ListenerId] {
        self.by_name.get(name).map_or(&[], Vec::as_slice)
    }

    /// The listeners of a kernel event: a marker's name (`Event::Marker`); none for other
    /// events.
    ///
    /// # Examples
    ///
    /// ```
    /// use gloam_core::{Event, Scope};
    /// use gloam_dsl::{ListenerId, TriggerIndex};
    /// let index = TriggerIndex::build([("round_end", ListenerId(4))]);
    /// let event = Event::Marker { name: "round_end".into(), scope: Scope::Game, data: vec![] };
    /// assert_eq!(index.listeners_of(&event), &[ListenerId(4)]);
    /// ```
    pub fn listeners_of(&self, event: &Event) -> &[ListenerId] {
        match event {
            Event::Marker { name, .. } => self.listeners(name),
            _ => &[],
        }
    }

    /// Every name with at least one listener, sorted.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.by_name.keys().map(String::as_str)
    }

    /// The number of names with listeners.
    pub fn len(&self) -> usize {
        self.by_name.len()
    }

    /// Whether no one listens to anything.
    pub fn is_empty(&self) -> bool {
        self.by_name.is_empty()
    }
}
