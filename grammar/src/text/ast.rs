//! The typed meaning of a card text: what the parser found, each with its byte span.

use std::ops::Range;

/// A parsed card text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardText {
    /// The text as given.
    pub original: String,
    /// The clean text the parser read (see [`super::normalize`]).
    pub clean: String,
    /// Everything the parser recognised, in text order.
    pub clauses: Vec<Clause>,
    /// The sentences in which nothing was recognised (byte ranges of the original).
    pub unparsed: Vec<Range<usize>>,
}

impl CardText {
    /// Whether every sentence of the text yielded some meaning.
    pub fn is_parsed(&self) -> bool {
        self.unparsed.is_empty() && !self.clauses.is_empty()
    }

    /// The clauses holding an effect.
    pub fn effects(&self) -> impl Iterator<Item = (&Clause, &Effect)> {
        self.clauses.iter().filter_map(|c| match &c.item {
            Item::Effect(effect) => Some((c, effect)),
            _ => None,
        })
    }
}

/// One recognised piece of meaning and where it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clause {
    /// What it means.
    pub item: Item,
    /// Its byte range in the original text.
    pub span: Range<usize>,
    /// The index of its sentence.
    pub sentence: usize,
}

/// What a clause means.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Item {
    /// A card keyword: `Surge`, `Reaction:`, `Waypoint`...
    Keyword(Keyword),
    /// When an objective is scored.
    Score(ScoreTiming),
    /// When the card's effect happens.
    Trigger(Trigger),
    /// Something the card does.
    Effect(Effect),
    /// How long an effect lasts.
    Duration(Duration),
    /// A condition or a qualifier on when or to whom the card applies.
    Condition(Condition),
    /// Who may use the card.
    Restriction(Vec<String>),
    /// A choice the player makes (`Choose one enemy fighter`), with what is chosen.
    Choose(Target),
    /// The Illusion rule: costs no glory, breaks at the end of the action phase or when
    /// its fighter is chosen by a gambit or dealt damage.
    IllusionRule,
    /// A weapon profile printed in the text (`Range 1, 1 Smash die, Damage 2`).
    Profile,
}

/// A card keyword.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Keyword {
    /// Scored immediately, at the moment described.
    Surge,
    /// Two conditions, either one scores.
    Hybrid,
    /// Two conditions, both needed.
    Dual,
    /// Played or used in reply to something.
    Reaction,
    /// A persisting battlefield effect.
    Waypoint,
    /// An upgrade that costs nothing and breaks easily.
    Illusion,
    /// A gambit spell.
    Spell,
    /// An upgrade that gives an Attack action.
    AttackAction,
    /// The Grievous weapon keyword.
    Grievous,
}

impl Keyword {
    /// The data name of the keyword (`attack_action`).
    pub fn name(&self) -> &'static str {
        match self {
            Keyword::Surge => "surge",
            Keyword::Hybrid => "hybrid",
            Keyword::Dual => "dual",
            Keyword::Reaction => "reaction",
            Keyword::Waypoint => "waypoint",
            Keyword::Illusion => "illusion",
            Keyword::Spell => "spell",
            Keyword::AttackAction => "attack_action",
            Keyword::Grievous => "grievous",
        }
    }
}

/// When an objective is scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ScoreTiming {
    /// In an end phase.
    EndPhase,
    /// In the third end phase only.
    ThirdEndPhase,
    /// Immediately after something (Surge).
    Immediately,
}

/// When the effect happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Trigger {
    /// After an event.
    After(Event),
    /// At the end of the action phase.
    ActionPhaseEnd,
    /// The card gives its fighter an action.
    Action,
    /// When an Attack action targets this fighter.
    AgainstThisFighter,
    /// Just before an event (Embergard: `immediately before an attack`).
    Before(Event),
}

/// An event a card waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Event {
    /// An activation.
    Activation,
    /// Any action.
    Action,
    /// An Attack action.
    Attack,
    /// A Move action.
    Move,
    /// A reaction.
    Reaction,
    /// A fighter taken out of action (slain).
    OutOfAction,
    /// A fighter delves (Embergard).
    Delve,
    /// A fighter is dealt damage.
    Damage,
}

/// Something the card does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Effect {
    /// What kind of thing.
    pub kind: EffectKind,
    /// Its number (hexes, damage, modifier, cards), when it has one.
    pub amount: Option<i64>,
    /// To whom.
    pub target: Target,
    /// `for each upgrade`: the amount counts per thing.
    pub per: Option<String>,
    /// `to a minimum of 1`.
    pub minimum: Option<i64>,
}

/// The kinds of effect.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EffectKind {
    /// A push.
    Push(PushDirection),
    /// Damage dealt.
    Damage,
    /// Wounds healed.
    Heal,
    /// A characteristic modifier.
    Modify(Stat),
    /// A re-roll.
    Reroll(Roll),
    /// Cards drawn or taken into the hand.
    Draw(Deck),
    /// Cards discarded.
    Discard(Deck),
    /// A token given.
    GiveToken(String),
    /// A token taken away.
    RemoveToken(String),
    /// A fighter staggered.
    Stagger,
    /// An upgrade broken.
    Break,
    /// A look at the top card of a deck.
    LookTop(Deck),
    /// A card put at the bottom of its deck.
    Bottom,
    /// Glory spent.
    SpendGlory,
    /// A fighter makes an action.
    MakeAction,
    /// A fighter gains a keyword (`this fighter is a hunter`).
    GrantKeyword(String),
    /// A fighter is Inspired.
    Inspire,
    /// A slain fighter is put back on the battlefield (Embergard: `raise`).
    Raise,
    /// Attack symbols count as successes (Shadespire: `both attack symbols count as
    /// successes`).
    CountAsSuccess,
    /// A fighter cannot be activated again this phase.
    NoMoreActivations,
}

/// Which way a push goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PushDirection {
    /// Any direction.
    Any,
    /// Closer to (towards) something.
    Closer,
    /// Away from something.
    Away,
}

/// A characteristic a modifier changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Stat {
    /// Move.
    Move,
    /// Attack dice.
    Dice,
    /// Defence.
    Defence,
    /// Wounds.
    Wounds,
    /// Attack damage.
    Damage,
    /// Attack range (Embergard: `+1 RANGE`).
    Range,
    /// Bounty (Embergard: glory for slaying the fighter).
    Bounty,
}

/// Which roll a re-roll is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Roll {
    /// An attack roll.
    Attack,
    /// A defence roll.
    Defence,
    /// Not said.
    Any,
}

/// A deck of cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Deck {
    /// Power cards.
    Power,
    /// Objective cards.
    Objective,
    /// Not said.
    Any,
}

/// Who an effect applies to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// How many.
    pub quantity: Quantity,
    /// Whose.
    pub side: Side,
    /// What kind of fighter (`fighter`, `minion`, `leader`...), when said.
    pub kind: Option<String>,
    /// `within N hexes of`.
    pub within: Option<i64>,
}

impl Target {
    /// A target the text does not name.
    pub fn unknown() -> Target {
        Target {
            quantity: Quantity::One,
            side: Side::Unknown,
            kind: None,
            within: None,
        }
    }
}

/// How many are affected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Quantity {
    /// One (`a`, `one`, `the chosen`).
    One,
    /// Each one (`each`, `every`, plural).
    Each,
}

/// Whose fighters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Side {
    /// The player's own.
    Friendly,
    /// The opponents'.
    Enemy,
    /// Any fighter.
    Any,
    /// The card's own fighter (`this fighter`, `it`, `the caster`).
    This,
    /// Not said.
    Unknown,
}

/// How long an effect lasts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Duration {
    /// In the next activation step.
    NextActivation,
    /// Until the end of the phase.
    EndOfPhase,
    /// Until the end of the round.
    EndOfRound,
    /// Until another Waypoint is played.
    UntilWaypoint,
    /// In (or until the end of) one side's next activation: `your next activation`
    /// ([`Side::Friendly`]), `the next enemy activation` ([`Side::Enemy`]), `this fighter's
    /// next activation` ([`Side::This`]). Not the same as [`Duration::NextActivation`], the
    /// whole activation step.
    Activation(Side),
}

/// A condition or qualifier.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Condition {
    /// `N or more`.
    AtLeast(i64),
    /// `exactly N`, `no` (0).
    Exactly(i64),
    /// A number mentioned otherwise (`three or four players`, `second`).
    Number(i64),
    /// `Range 1 or Range 2`.
    Range(Vec<i64>),
    /// `within N hexes`.
    Within(i64),
    /// `adjacent`, `next to`.
    Adjacent,
    /// A fighter keyword: `leader`, `wizard`, `minion`, `assassin`.
    Mentions(String),
    /// A token: `Charge token`.
    Token(String),
    /// A hex type or feature: `cover hex`, `edge hex`, `feature token`, `objective`.
    HexType(String),
    /// `successful`: the outcome of an Attack action.
    Successful,
    /// `fails`, `failed`: the Attack action failed (the negation of [`Condition::Successful`]).
    Failed,
    /// `takes ... out of action`, `slays` within an Attack action's moment: the Attack
    /// action took its target out of action (as opposed to a lethal hex or a later effect).
    TakenOut,
    /// `once per round`.
    OncePerRound,
    /// `the first Attack action` only.
    First,
    /// `if the attacker has a supporting fighter`.
    Supported,
    /// `except when ...`, `other than ...`, `not a ...`.
    Except,
    /// Whose fighter a condition or a moment speaks of (`if a friendly fighter ...`, `after
    /// an enemy fighter's Attack action`, `while this fighter ...`): friendly, enemy or this
    /// fighter.
    Whose(Side),
    /// Where a fighter or a hex must be: `in friendly territory`, `in enemy territory`,
    /// `outside your territory`.
    Territory(Territory),
    /// A count compared with a value of the game rather than a number: `the number of the
    /// current round` (`round`).
    GameValue(String),
    /// The fighter still stands after damage (`still stands`, `survives`).
    Stands,
    /// Whose fighter plays a part in the moment: `a friendly fighter's Attack action`, `an
    /// enemy fighter slays` (the attacker); `an attack on a friendly fighter`, `slays an enemy
    /// fighter`, `a friendly fighter moves` (the target).
    Role(Role, Side),
}

/// The part a fighter plays in the moment a card waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Role {
    /// The fighter that attacks, slays or takes out of action.
    Attacker,
    /// The fighter attacked, slain, taken out of action, moving, delving or dealt damage.
    Target,
}

/// Whose territory a condition names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Territory {
    /// `in friendly territory`, `in your territory`.
    Friendly,
    /// `in enemy territory`.
    Enemy,
    /// `outside your territory`: an enemy's, or no one's.
    NotFriendly,
    /// `outside enemy territory`: yours, or no one's.
    NotEnemy,
}
