//! The C ABI called as a C host calls it: NULL arguments, bad UTF-8, buffers too small, and
//! a data path that does not load.

#![allow(
    unsafe_code,
    reason = "these tests call the C ABI through raw pointers, as C does"
)]

use std::ffi::{CStr, CString, c_char};

use gloam_capi::{
    gloam_session_free, gloam_session_new, gloam_session_request, gloam_session_request_into,
    gloam_session_take_reply, gloam_string_free,
};

fn cards() -> CString {
    CString::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../cards")).unwrap()
}

fn session() -> *mut gloam_capi::GloamSession {
    let cards = cards();
    let paths = [cards.as_ptr()];
    let session = unsafe { gloam_session_new(paths.as_ptr(), 1, std::ptr::null_mut()) };
    assert!(!session.is_null());
    session
}

fn owned_reply(session: *mut gloam_capi::GloamSession, request: &str) -> String {
    let request = CString::new(request).unwrap();
    let reply = unsafe { gloam_session_request(session, request.as_ptr()) };
    assert!(!reply.is_null());
    let text = unsafe { CStr::from_ptr(reply) }
        .to_str()
        .unwrap()
        .to_owned();
    unsafe { gloam_string_free(reply) };
    text
}

const NEW_GAME: &str = r#"{"id": 1, "cmd": "new_game", "ruleset": "harrowdeep", "seed": 4}"#;

#[test]
fn a_reply_too_long_for_the_buffer_is_kept_whole_until_taken() {
    let first = session();
    let second = session();
    let expected = owned_reply(first, NEW_GAME);
    let request = CString::new(NEW_GAME).unwrap();
    let mut small = vec![0 as c_char; 64];
    let length = unsafe {
        gloam_session_request_into(second, request.as_ptr(), small.as_mut_ptr(), small.len())
    };
    assert_eq!(length as usize, expected.len());
    assert_eq!(
        small[0], 0,
        "nothing is written into a buffer that is too small"
    );
    // Still too small: kept again.
    let again = unsafe { gloam_session_take_reply(second, small.as_mut_ptr(), small.len()) };
    assert_eq!(again, length);
    let mut large = vec![0 as c_char; expected.len() + 1];
    let taken = unsafe { gloam_session_take_reply(second, large.as_mut_ptr(), large.len()) };
    assert_eq!(taken, length);
    let text = unsafe { CStr::from_ptr(large.as_ptr()) }.to_str().unwrap();
    assert_eq!(
        text, expected,
        "the same request gives the same reply in both sessions"
    );
    // Taken once only; the game was made once only (the next new game is game 2).
    assert_eq!(
        unsafe { gloam_session_take_reply(second, large.as_mut_ptr(), large.len()) },
        -1
    );
    assert!(owned_reply(second, NEW_GAME).contains(r#""game":2"#));
    unsafe {
        gloam_session_free(first);
        gloam_session_free(second);
    }
}

#[test]
fn null_arguments_and_bad_utf8_are_answered_without_a_crash() {
    let session = session();
    let request = CString::new(NEW_GAME).unwrap();
    assert!(unsafe { gloam_session_request(std::ptr::null_mut(), request.as_ptr()) }.is_null());
    assert!(unsafe { gloam_session_request(session, std::ptr::null()) }.is_null());
    assert_eq!(
        unsafe {
            gloam_session_request_into(
                std::ptr::null_mut(),
                request.as_ptr(),
                std::ptr::null_mut(),
                0,
            )
        },
        -1
    );
    let bad = [0xffu8 as c_char, 0xfe_u8 as c_char, 0];
    let reply = unsafe { gloam_session_request(session, bad.as_ptr()) };
    let text = unsafe { CStr::from_ptr(reply) }
        .to_str()
        .unwrap()
        .to_owned();
    unsafe { gloam_string_free(reply) };
    assert!(
        text.starts_with(r#"{"id":null,"error":{"code":"malformed""#),
        "{text}"
    );
    unsafe {
        gloam_string_free(std::ptr::null_mut());
        gloam_session_free(std::ptr::null_mut());
        gloam_session_free(session);
    }
}

#[test]
fn data_that_does_not_load_gives_null_and_a_message() {
    let missing = CString::new("/nonexistent/gloam-data").unwrap();
    let paths = [missing.as_ptr()];
    let mut error: *mut c_char = std::ptr::null_mut();
    let session = unsafe { gloam_session_new(paths.as_ptr(), 1, &mut error) };
    assert!(session.is_null());
    assert!(!error.is_null());
    let message = unsafe { CStr::from_ptr(error) }
        .to_str()
        .unwrap()
        .to_owned();
    unsafe { gloam_string_free(error) };
    assert!(message.contains("/nonexistent/gloam-data"), "{message}");
}
