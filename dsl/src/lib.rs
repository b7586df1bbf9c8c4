//! gloam-dsl: see ARCHITECTURE.md.
