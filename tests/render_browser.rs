//! The replay page in a real browser (issue 16, "Show"): headless Chromium (Debian's
//! `chromium`, which `.ci/run` installs when it is missing) loads the page `gloam replay
//! --html` writes for a whole saved game, and the test checks that it runs without a console
//! message or a window error, that the step in the URL (`#step=N`) draws that step's fighters
//! where the game had them, and that a screenshot shows the board in both owners' colours.
//!
//! Without `/usr/bin/chromium` the test fails with how to install it, unless
//! `GLOAM_SKIP_BROWSER=1` is set.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use gloam::render::{OWNER_COLOURS, Step};

mod pictures;
use pictures::{cards_dir, fresh_dir, gloam, save_game};

const CHROMIUM: &str = "/usr/bin/chromium";

/// The browser, or `None` when it is missing and the skip is asked for.
fn chromium() -> Option<PathBuf> {
    let path = PathBuf::from(CHROMIUM);
    if path.exists() {
        return Some(path);
    }
    if std::env::var("GLOAM_SKIP_BROWSER").as_deref() == Ok("1") {
        eprintln!("skipped: {CHROMIUM} is missing and GLOAM_SKIP_BROWSER=1");
        return None;
    }
    panic!(
        "the browser test needs headless Chromium at {CHROMIUM}: install Debian's `chromium` \
         (`apt-get install -y chromium`, as .ci/run does), or set GLOAM_SKIP_BROWSER=1 to skip it"
    );
}

/// What the browser printed and how it ended.
struct Browsed {
    success: bool,
    stdout: String,
    stderr: String,
}

/// Runs the browser on `url` with `extra` flags and a fresh profile in `dir`; gives up after
/// two minutes. Its output goes to files (a full pipe would stall it while the test polls).
fn browse(browser: &Path, dir: &Path, name: &str, url: &str, extra: &[String]) -> Browsed {
    let profile = dir.join(format!("profile-{name}"));
    let _ = std::fs::remove_dir_all(&profile);
    std::fs::create_dir_all(&profile).unwrap();
    let stdout_path = dir.join(format!("{name}.stdout"));
    let stderr_path = dir.join(format!("{name}.stderr"));
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(url)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&stdout_path).unwrap())
        .stderr(std::fs::File::create(&stderr_path).unwrap())
        .spawn()
        .expect("chromium starts");
    // Poll rather than block, so a browser that hangs fails the test instead of stalling it.
    for _ in 0..1200 {
        if let Some(status) = child.try_wait().expect("chromium runs") {
            return Browsed {
                success: status.success(),
                stdout: std::fs::read_to_string(&stdout_path).unwrap_or_default(),
                stderr: std::fs::read_to_string(&stderr_path).unwrap_or_default(),
            };
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("chromium did not finish within two minutes on {url}");
}

/// Every console line the browser logged (the page logs nothing when all is well).
fn console_lines(output: &Browsed) -> Vec<String> {
    output
        .stderr
        .lines()
        .filter(|line| line.contains(":CONSOLE") || line.contains("Uncaught"))
        .map(str::to_owned)
        .collect()
}

/// The fighters the page drew, as (piece, hex) from their `data-piece`/`data-hex`.
fn drawn_fighters(dom: &str) -> BTreeSet<(u16, String)> {
    let mut fighters = BTreeSet::new();
    for chunk in dom.split("class=\"fighter\"").skip(1) {
        let attribute = |name: &str| {
            let start = chunk.find(&format!("{name}=\"")).expect("an attribute") + name.len() + 2;
            let end = start + chunk[start..].find('"').expect("its end");
            chunk[start..end].to_owned()
        };
        fighters.insert((
            attribute("data-piece").parse().unwrap(),
            attribute("data-hex"),
        ));
    }
    fighters
}

/// The fighters of a replayed step, as the page should draw them.
fn expected_fighters(step: &Step) -> BTreeSet<(u16, String)> {
    step.state
        .pieces
        .values()
        .filter(|p| p.layer.is_empty())
        .filter_map(|p| {
            let hex = p.position.and_then(|pos| pos.hex())?;
            Some((p.id.0, format!("{},{}", hex.q, hex.r)))
        })
        .collect()
}

fn rgb(hex: &str) -> [u8; 3] {
    let channel = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).unwrap();
    [channel(1), channel(3), channel(5)]
}

#[test]
fn the_replay_page_runs_in_headless_chromium_steps_and_shows_the_pieces() {
    let Some(browser) = chromium() else {
        return;
    };
    let dir = fresh_dir("browser");
    let save = dir.join("game.json");
    let saved = save_game("harrowdeep", 5, &save);
    let page = dir.join("game.html");
    let output = gloam()
        .arg("replay")
        .arg(&save)
        .arg("--html")
        .arg(&page)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let (sources, _) = gloam::load::read_paths(&[cards_dir()]);
    let (loaded, host) = gloam::sim::load_checked(&sources).unwrap();
    let (_, steps) = gloam::render::steps_of(&saved, loaded, host).unwrap();
    let url = |step: usize| format!("file://{}#step={step}", page.display());
    // Three steps: the first decision (nobody placed yet), the first with every fighter
    // placed, and the end of the game.
    let deployed = steps
        .iter()
        .position(|s| {
            let placed = expected_fighters(s);
            !placed.is_empty()
                && placed.len()
                    == s.state
                        .pieces
                        .values()
                        .filter(|p| p.layer.is_empty())
                        .count()
        })
        .expect("a step with every fighter placed");
    let last = steps.len() - 1;
    let mut seen = Vec::new();
    for step in [0, deployed, last] {
        let output = browse(
            &browser,
            &dir,
            &format!("dom-{step}"),
            &url(step),
            &["--virtual-time-budget=5000".into(), "--dump-dom".into()],
        );
        assert!(output.success, "chromium failed: {}", output.stderr);
        let dom = output.stdout.clone();
        assert_eq!(console_lines(&output), Vec::<String>::new(), "step {step}");
        assert!(
            dom.contains(&format!("data-step=\"{step}\"")),
            "the page did not show step {step}"
        );
        assert!(
            dom.contains("data-ready=\"yes\""),
            "the script did not finish"
        );
        // The page writes window errors into its `errors` element and marks the body.
        let body = &dom[dom.find("<body").expect("a body")..];
        let body_tag = &body[..body.find('>').expect("the body tag ends")];
        assert!(
            !body_tag.contains("data-errors"),
            "window errors: {body_tag}"
        );
        assert!(
            dom.contains("<pre id=\"errors\"></pre>"),
            "window errors: {}",
            dom[dom.find("<pre id=\"errors\">").unwrap_or(0)..]
                .chars()
                .take(300)
                .collect::<String>()
        );
        assert_eq!(
            drawn_fighters(&dom),
            expected_fighters(&steps[step]),
            "step {step}"
        );
        seen.push(drawn_fighters(&dom));
    }
    // Stepping changes the board.
    assert!(seen[0].is_empty());
    assert_ne!(seen[1], seen[0]);
    assert_ne!(seen[2], seen[1]);
    // A screenshot of the deployed step: a PNG, not blank, with both owners' colours.
    let shot = dir.join("deployed.png");
    let output = browse(
        &browser,
        &dir,
        "shot",
        &url(deployed),
        &[
            format!("--screenshot={}", shot.display()),
            "--window-size=1400,1000".into(),
            "--virtual-time-budget=5000".into(),
            "--hide-scrollbars".into(),
        ],
    );
    assert!(output.success, "chromium failed: {}", output.stderr);
    assert_eq!(console_lines(&output), Vec::<String>::new());
    let decoder = png::Decoder::new(std::fs::File::open(&shot).expect("a screenshot"));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buffer = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buffer).expect("a PNG frame");
    assert_eq!((info.width, info.height), (1400, 1000));
    let channels = match info.color_type {
        png::ColorType::Rgb => 3,
        png::ColorType::Rgba => 4,
        other => panic!("unexpected colour type {other:?}"),
    };
    let pixels: Vec<[u8; 3]> = buffer[..info.buffer_size()]
        .chunks(channels)
        .map(|p| [p[0], p[1], p[2]])
        .collect();
    let distinct: BTreeSet<[u8; 3]> = pixels.iter().copied().collect();
    assert!(distinct.len() > 50, "a blank screenshot");
    let near = |a: [u8; 3], b: [u8; 3]| a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= 12);
    for (seat, colour) in OWNER_COLOURS.iter().take(2).enumerate() {
        let count = pixels.iter().filter(|p| near(**p, rgb(colour))).count();
        // Each fighter's disc is about 18 px across: several fighters make well over 500.
        assert!(
            count > 500,
            "seat {seat}'s colour {colour} covers only {count} pixels"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
