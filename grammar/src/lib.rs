//! gloam-grammar: see ARCHITECTURE.md.
