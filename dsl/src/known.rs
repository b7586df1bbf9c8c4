//! The names a ruleset declares, against which scripts' string literals are checked.

use std::collections::BTreeSet;

use crate::vocabulary::NameKind;

/// The names a ruleset declares, by kind: the tokens, keywords, characteristics, counters,
/// hex types, timing windows and events, zones, dice and flow steps that scripts may name.
///
/// Given to [`crate::Host::compile`] through [`crate::ScriptContext::with_names`]. Where a
/// vocabulary parameter takes a name ([`crate::Param::names`]) and the script passes a string
/// literal, the literal must be one of the names of that kind, or the script is refused with
/// `gloam::dsl::unknown_name`. Only literals are checked: a name computed while the script
/// runs (a variable, a concatenation) is not.
///
/// An empty set means "not checked": a kind the ruleset declares nothing of is not checked,
/// and [`KnownNames::permissive`] (the default) checks nothing at all.
///
/// The loader decides what goes in each set. The vocabulary's own names ([`crate::Names`]:
/// `damage`, `glory`, `round`, `wounds`, `inspired`, the four zones) are not added by
/// themselves: a ruleset whose scripts write `counter("round")` lists `round` among its
/// counters, and one that checks zones lists every zone its scripts name. For
/// [`NameKind::Event`] the set is the ruleset's timing windows plus any events it declares;
/// for [`NameKind::Step`], the ruleset's steps plus the driver's built-in `card` and
/// `ability`.
///
/// # Examples
///
/// ```
/// use gloam_dsl::{Host, KnownNames, NameKind, ScriptContext, ScriptSource};
/// let names = KnownNames::permissive()
///     .with(NameKind::Token, ["guard", "stagger"])
///     .with(NameKind::Event, ["phase_end", "round_end"]);
/// let context = ScriptContext::effect("card \"Brace\" effect")
///     .with_variables(["target"])
///     .with_names(names);
/// let host = Host::new();
/// let ok = ScriptSource::whole("brace.gloam", "give_token(target, \"guard\")");
/// assert!(host.compile(&ok, &context).is_ok());
/// let typo = ScriptSource::whole("brace.gloam", "give_token(target, \"gard\")");
/// let errors = host.compile(&typo, &context).unwrap_err();
/// assert_eq!(errors[0].code_name(), "gloam::dsl::unknown_name");
/// assert_eq!(errors[0].help_text(), Some("did you mean `guard`?"));
/// // Keywords were not given, so they are not checked.
/// let keyword = ScriptSource::whole("brace.gloam", "has_keyword(target, \"anything\")");
/// assert!(host.compile(&keyword, &context).is_ok());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct KnownNames {
    /// Tokens ([`NameKind::Token`]).
    pub tokens: BTreeSet<String>,
    /// Keywords ([`NameKind::Keyword`]).
    pub keywords: BTreeSet<String>,
    /// Characteristics ([`NameKind::Characteristic`]).
    pub characteristics: BTreeSet<String>,
    /// Counters of the game, fighters and players ([`NameKind::Counter`]).
    pub counters: BTreeSet<String>,
    /// Hex types ([`NameKind::HexType`]).
    pub hex_types: BTreeSet<String>,
    /// Timing windows and named events ([`NameKind::Event`]).
    pub events: BTreeSet<String>,
    /// Zones ([`NameKind::Zone`]).
    pub zones: BTreeSet<String>,
    /// Kinds of dice ([`NameKind::Die`]).
    pub dice: BTreeSet<String>,
    /// Steps of the flow ([`NameKind::Step`]): the ruleset's steps, `card` and `ability`.
    pub steps: BTreeSet<String>,
}

impl KnownNames {
    /// No names of any kind: nothing is checked.
    pub fn permissive() -> KnownNames {
        KnownNames::default()
    }

    /// The same names with more names of one kind.
    pub fn with<I, S>(mut self, kind: NameKind, names: I) -> KnownNames
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.get_mut(kind).extend(names.into_iter().map(Into::into));
        self
    }

    /// The names of one kind (empty: that kind is not checked).
    pub fn get(&self, kind: NameKind) -> &BTreeSet<String> {
        match kind {
            NameKind::Token => &self.tokens,
            NameKind::Keyword => &self.keywords,
            NameKind::Characteristic => &self.characteristics,
            NameKind::Counter => &self.counters,
            NameKind::HexType => &self.hex_types,
            NameKind::Event => &self.events,
            NameKind::Zone => &self.zones,
            NameKind::Die => &self.dice,
            NameKind::Step => &self.steps,
        }
    }

    /// The names of one kind, to change.
    pub fn get_mut(&mut self, kind: NameKind) -> &mut BTreeSet<String> {
        match kind {
            NameKind::Token => &mut self.tokens,
            NameKind::Keyword => &mut self.keywords,
            NameKind::Characteristic => &mut self.characteristics,
            NameKind::Counter => &mut self.counters,
            NameKind::HexType => &mut self.hex_types,
            NameKind::Event => &mut self.events,
            NameKind::Zone => &mut self.zones,
            NameKind::Die => &mut self.dice,
            NameKind::Step => &mut self.steps,
        }
    }

    /// Whether names of this kind are checked (some are known).
    pub fn checks(&self, kind: NameKind) -> bool {
        !self.get(kind).is_empty()
    }

    /// Whether nothing is checked.
    pub fn is_permissive(&self) -> bool {
        NameKind::ALL.into_iter().all(|kind| !self.checks(kind))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_its_own_set() {
        let mut names = KnownNames::permissive();
        assert!(names.is_permissive());
        for (i, kind) in NameKind::ALL.into_iter().enumerate() {
            names = names.with(kind, [format!("name{i}")]);
        }
        for (i, kind) in NameKind::ALL.into_iter().enumerate() {
            assert_eq!(names.get(kind).len(), 1, "{kind:?}");
            assert!(names.get(kind).contains(&format!("name{i}")));
        }
        assert!(!names.is_permissive());
    }
}
