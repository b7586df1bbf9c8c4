//! The tokenizer of card text (logos).

use logos::Logos;

/// A token of card text. The parser reads words in lower case; punctuation is kept because
/// it separates clauses.
#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq)]
#[logos(skip r"[ \t\r\n]+")]
#[non_exhaustive]
pub enum TokenKind {
    /// A word, possibly hyphenated: `fighter`, `re-roll`, `Giant-fell`.
    #[regex(r"[A-Za-z]+(-[A-Za-z]+)*")]
    Word,
    /// A whole number: `2`.
    #[regex(r"[0-9]+")]
    Number,
    /// A signed number, a modifier: `+2`, `-1`.
    #[regex(r"[+-][0-9]+")]
    Signed,
    /// A printed icon written as a token: `{crit}`, `{channel}`.
    #[regex(r"\{[A-Za-z0-9_-]+\}")]
    Icon,
    /// An apostrophe, or a possessive `'s`.
    #[regex(r"'s?")]
    Apostrophe,
    /// `.`
    #[token(".")]
    Period,
    /// `,`
    #[token(",")]
    Comma,
    /// `:`
    #[token(":")]
    Colon,
    /// `;`
    #[token(";")]
    Semicolon,
    /// `(`
    #[token("(")]
    Open,
    /// `)`
    #[token(")")]
    Close,
    /// A dash that is not a sign.
    #[token("-")]
    Dash,
    /// A double quote.
    #[token("\"")]
    Quote,
    /// Any other character (an unreadable glyph, a symbol).
    Other,
}

/// A token with its text in lower case and its byte range in the (clean) text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// What it is.
    pub kind: TokenKind,
    /// Its text, in lower case.
    pub lower: String,
    /// Its byte range in the text that was tokenized.
    pub span: std::ops::Range<usize>,
}

/// Splits `text` into tokens. Never fails: an unknown character is an [`TokenKind::Other`].
///
/// # Examples
///
/// ```
/// use gloam_grammar::text::{tokenize, TokenKind};
/// let tokens = tokenize("Push it +1 hex {crit}.");
/// let kinds: Vec<TokenKind> = tokens.iter().map(|t| t.kind).collect();
/// assert_eq!(kinds, [TokenKind::Word, TokenKind::Word, TokenKind::Signed, TokenKind::Word,
///     TokenKind::Icon, TokenKind::Period]);
/// assert_eq!(tokens[4].lower, "{crit}");
/// ```
pub fn tokenize(text: &str) -> Vec<Token> {
    let mut lexer = TokenKind::lexer(text);
    let mut tokens = Vec::new();
    while let Some(result) = lexer.next() {
        let kind = result.unwrap_or(TokenKind::Other);
        tokens.push(Token {
            kind,
            lower: lexer.slice().to_lowercase(),
            span: lexer.span(),
        });
    }
    tokens
}
