//! The agent specs and agent files, against hand-written ones.
use super::*;
use crate::external::OnFailure;
use crate::games::breakthrough::Breakthrough;
use crate::search::mcts::Rollout;

#[test]
fn inline_specs_fill_defaults_and_keep_heuristic_parameters() {
    let spec: AgentSpec = "alphabeta(heuristic=offensive2,depth=4,almost_win=5000)"
        .parse()
        .expect("valid");
    assert_eq!(spec.algorithm, Algorithm::AlphaBeta);
    assert_eq!(spec.depth, 4);
    assert_eq!(spec.heuristic.as_deref(), Some("offensive2"));
    assert_eq!(spec.params, vec![("almost_win".into(), "5000".into())]);
    assert_eq!(
        spec.name,
        "alphabeta(heuristic=offensive2,depth=4,almost_win=5000)"
    );
    let minimax: AgentSpec = "minimax(heuristic=defense)".parse().expect("valid");
    assert_eq!(minimax.depth, DEFAULT_DEPTH);
    let greedy: AgentSpec = "greedy(heuristic=offense)".parse().expect("valid");
    assert_eq!(greedy.depth, 1);
    let random: AgentSpec = "random".parse().expect("valid");
    assert_eq!((random.depth, random.heuristic), (0, None));
    assert!(
        spec.factory(&Breakthrough::new(
            crate::games::breakthrough::Rules::Standard
        ))
        .is_ok()
    );
}

#[test]
fn mcts_and_table_specs_parse_print_and_refuse_what_does_not_fit() {
    let spec = |t: &str| t.parse::<AgentSpec>();
    let mcts = spec("mcts").expect("defaults");
    assert_eq!(mcts.mcts.iterations, 1000);
    assert_eq!(mcts.canonical(), "mcts(iterations=1000)");
    let timed = spec("mcts(time_ms=50)").expect("timed");
    assert_eq!(
        (timed.mcts.iterations, timed.canonical().as_str()),
        (0, "mcts(time_ms=50)")
    );
    let heuristic =
        spec("mcts(heuristic=offensive2,rollout=heuristic,rollout_plies=20,c=0.7,epsilon=0.2)")
            .expect("heuristic rollouts");
    assert_eq!(heuristic.mcts.rollout, Rollout::Heuristic);
    assert_eq!(
        heuristic.canonical(),
        "mcts(heuristic=offensive2,iterations=1000,c=0.7,rollout=heuristic,rollout_plies=20,epsilon=0.2)"
    );
    assert!(
        heuristic
            .factory(&Breakthrough::new(
                crate::games::breakthrough::Rules::Standard
            ))
            .is_ok()
    );
    let err = |t: &str| spec(t).expect_err(t).message;
    assert!(err("mcts(rollout=heuristic)").contains("needs a heuristic"));
    assert!(err("mcts(iterations=0)").contains("iterations '0'"));
    assert!(err("mcts(rollout=smart)").contains("random or heuristic"));
    assert!(err("mcts(depth=3)").contains("mcts takes no depth"));
    assert!(
        err("alphabeta(heuristic=offense,iterations=5)")
            .contains("iterations is a parameter of mcts and ismcts")
    );
    assert!(
        err("alphabeta(heuristic=offense,tt_mb=4)").contains("tt_mb is alphabeta-tt's parameter")
    );
    let tt = spec("alphabeta-tt(heuristic=offense,depth=5,tt_mb=8)").expect("table");
    assert_eq!(tt.tt_mb, 8);
    assert_eq!(
        tt.canonical(),
        "alphabeta-tt(heuristic=offense,depth=5,tt_mb=8)"
    );
    assert!(err("alphabeta-tt(heuristic=offense,tt_mb=0)").contains("tt_mb '0'"));
    assert!(err("alphabeta-tt(heuristic=offense,aspiration=-1)").contains("aspiration '-1'"));
    assert!(
        err("alphabeta(heuristic=offense,aspiration=5)")
            .contains("aspiration is alphabeta-tt's parameter")
    );
    let budget = spec("alphabeta(heuristic=offense,nodes=5000)").expect("node budget");
    assert_eq!((budget.nodes, budget.depth), (Some(5000), 0));
    assert_eq!(
        budget.canonical(),
        "alphabeta(heuristic=offense,depth=0,nodes=5000)"
    );
    // The canonical form is read back (a resumed run reads it from meta.json), and
    // depth 0 means no limit only beside a budget.
    for budgeted in [
        budget,
        spec("alphabeta(heuristic=offense,time_ms=20)").expect("t"),
    ] {
        let again = spec(&budgeted.canonical()).expect("its canonical form parses");
        assert_eq!(again.canonical(), budgeted.canonical());
        assert_eq!((again.depth, again.nodes), (0, budgeted.nodes));
    }
    // Depth 0 (no limit) and depths past a fixed search's parse: a budget or a game
    // clock must stop them (the experiment checks that there is one).
    assert_eq!(
        spec("alphabeta(heuristic=offense,depth=0)")
            .expect("0")
            .depth,
        0
    );
    assert_eq!(
        spec("alphabeta-tt(heuristic=offense,depth=30)")
            .expect("30")
            .depth,
        30
    );
    assert!(err("alphabeta(heuristic=offense,depth=65)").contains("up to 64"));
    assert!(err("alphabeta(heuristic=offense,nodes=0)").contains("nodes '0' must be"));
    assert!(err("mcts(nodes=10)").contains("mcts takes no nodes"));
    let aspiring = spec("alphabeta-tt(heuristic=offense,aspiration=2.5)").expect("window");
    assert_eq!(aspiring.aspiration, 2.5);
    assert_eq!(
        aspiring.canonical(),
        "alphabeta-tt(heuristic=offense,depth=3,aspiration=2.5)"
    );
}

#[test]
fn edit_distance_counts_single_character_changes() {
    use crate::core::edit_distance;
    assert_eq!(edit_distance("ab3-ofensive2", "ab3-offensive2"), 1);
    assert_eq!(edit_distance("kitten", "sitting"), 3);
    assert_eq!(edit_distance("", "abc"), 3);
    assert_eq!(edit_distance("same", "same"), 0);
}

#[test]
fn bad_agent_specs_say_what_is_wrong() {
    let err = |t: &str| t.parse::<AgentSpec>().expect_err(t).message;
    assert!(err("uct(heuristic=x)").contains("unknown algorithm 'uct'"));
    assert!(err("minimax(heuristic=offense,depth=99)").contains("from 1 to 12"));
    assert!(err("minimax(heuristic=offense,depth=two)").contains("from 1 to 12"));
    // Without a heuristic, refused where the game has no default one (every built-in).
    let no_heuristic: AgentSpec = "minimax(depth=2)".parse().expect("parses");
    let refused = no_heuristic
        .factory(&Breakthrough::new(
            crate::games::breakthrough::Rules::Standard,
        ))
        .err()
        .expect("refused for breakthrough")
        .message;
    assert!(refused.contains("minimax needs a heuristic"), "{refused}");
    assert!(err("greedy(heuristic=offense,depth=3)").contains("exactly one ply"));
    assert!(err("random(heuristic=offense)").contains("no heuristic"));
    let unknown: AgentSpec = "minimax(heuristic=chess)".parse().expect("parses");
    let message = unknown
        .factory(&Breakthrough::new(
            crate::games::breakthrough::Rules::Standard,
        ))
        .err()
        .expect("unknown heuristic")
        .message;
    assert!(message.contains("unknown heuristic 'chess'") && message.contains("offensive2"));
    let bad_key: AgentSpec = "minimax(heuristic=offense,wieght=1)"
        .parse()
        .expect("parses");
    let error = bad_key
        .factory(&Breakthrough::new(
            crate::games::breakthrough::Rules::Standard,
        ))
        .err()
        .expect("unknown key");
    // The error carries the key it is about: an agent file points at that key's line.
    assert_eq!(error.key.as_deref(), Some("wieght"));
    let message = error.message;
    assert!(message.contains("unknown parameter 'wieght'"), "{message}");
    // A misspelt key is named before the heuristic it seems to lack.
    let typo: AgentSpec = "alphabeta(depht=3)".parse().expect("parses");
    let said = typo
        .factory(&Breakthrough::new(
            crate::games::breakthrough::Rules::Standard,
        ))
        .err()
        .expect("refused")
        .message;
    assert!(
        said.contains("unknown parameter 'depht': did you mean 'depth'?"),
        "{said}"
    );
}

#[test]
fn registry_loads_files_and_resolves_names_before_specs() {
    let folder = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        folder.path().join("a.toml"),
        "[[agent]]\nname = \"ab4\"\nalgorithm = \"alphabeta\"\nheuristic = \"offensive2\"\ndepth = 4\nparams = { almost_win = 5000 }\n",
    )
    .expect("write");
    let registry = AgentRegistry::load(folder.path()).expect("valid");
    let ab4 = registry.resolve("ab4").expect("registered");
    assert_eq!(ab4.name, "ab4");
    assert_eq!(ab4.depth, 4);
    assert_eq!(ab4.params, vec![("almost_win".into(), "5000".into())]);
    assert!(registry.resolve("random").is_ok());
    let err = registry.resolve("ab5").expect_err("unknown").message;
    assert!(
        err.contains("unknown agent 'ab5'") && err.contains("ab4"),
        "{err}"
    );

    std::fs::write(
        folder.path().join("b.toml"),
        "[[agent]]\nname = \"ab4\"\nalgorithm = \"minimax\"\nheuristic = \"offense\"\n",
    )
    .expect("write");
    let err = AgentRegistry::load(folder.path()).expect_err("duplicate");
    assert!(
        err.to_string()
            .contains("b.toml: line 2: agent 'ab4' is already defined in")
    );

    std::fs::write(
        folder.path().join("b.toml"),
        "[[agent]]\nname = \"x\"\nalgo = 1\n",
    )
    .expect("write");
    let err = AgentRegistry::load(folder.path())
        .expect_err("bad key")
        .to_string();
    assert!(
        err.contains("b.toml: line 3: malformed TOML: unknown field `algo`"),
        "{err}"
    );

    // A heuristic or parameter no game takes is this file's mistake, found on loading
    // and blamed on the line that holds it.
    for (entry, expected) in [
        (
            "heuristic = \"ofensive2\"",
            "b.toml: line 4: agent 'x': no game has a heuristic 'ofensive2': did you mean 'offensive2'?",
        ),
        (
            "heuristic = \"offensive2\"\nparams = { almost_wn = 5 }",
            "b.toml: line 5: agent 'x': unknown parameter 'almost_wn' for heuristic offensive2",
        ),
        (
            "heuristic = \"offensive2\"\ndepth = 2\n\n[[agent]]\nname = \"y\"\nalgorithm = \"alphabta\"",
            "b.toml: line 9: agent 'y': unknown algorithm 'alphabta'",
        ),
    ] {
        std::fs::write(
            folder.path().join("b.toml"),
            format!("[[agent]]\nname = \"x\"\nalgorithm = \"alphabeta\"\n{entry}\n"),
        )
        .expect("write");
        let err = AgentRegistry::load(folder.path())
            .expect_err("no game takes it")
            .to_string();
        assert!(err.contains(expected), "{err}");
    }
    // A heuristic of another game than Breakthrough's is fine in an agent file.
    std::fs::write(
        folder.path().join("b.toml"),
        "[[agent]]\nname = \"x\"\nalgorithm = \"alphabeta\"\nheuristic = \"lines\"\n",
    )
    .expect("write");
    assert!(AgentRegistry::load(folder.path()).is_ok());
}

#[test]
fn agents_that_play_alike_have_one_identity() {
    let game = "breakthrough(rules=standard)";
    let id = |spec: &str| agent_identity(game, spec);
    let base = id("alphabeta(heuristic=offensive2,depth=3)");
    assert_eq!(
        id("alphabeta(heuristic=offensive2,depth=3,enemy_weight=1)"),
        base
    );
    assert_eq!(
        id("alphabeta(depth=3,enemy_weight=1.0,heuristic=offensive2)"),
        base
    );
    assert_eq!(
        id("alphabeta(heuristic=offensive2,depth=3,enemy_weight=2.0)"),
        id("alphabeta(heuristic=offensive2,depth=3,enemy_weight=2)")
    );
    assert_ne!(
        id("alphabeta(heuristic=offensive2,depth=3,enemy_weight=2)"),
        base
    );
    assert_ne!(id("alphabeta(heuristic=offensive2,depth=4)"), base);
    // A program's spec is its own identity.
    assert_eq!(
        id("external:{\"command\":[\"x\"]}"),
        "external:{\"command\":[\"x\"]}"
    );
}

#[test]
fn external_agents_are_registered_checked_and_round_trip_through_meta() {
    let folder = tempfile::tempdir().expect("temp dir");
    let file = folder.path().join("ext.toml");
    let mut registry = AgentRegistry::default();
    registry
        .add_text(
            &file,
            "[[agent]]\nname = \"bot\"\ncommand = [\"python3\", \"bot.py\"]\ncwd = \"..\"\noptions = { depth = 3, style = \"calm\" }\ntolerance_ms = 0\non_failure = \"random\"\n",
        )
        .expect("valid");
    let bot = registry.resolve("bot").expect("registered");
    let external = bot.external.clone().expect("external");
    assert_eq!(external.command, ["python3", "bot.py"]);
    assert!(external.cwd.is_absolute() && external.cwd.ends_with(".."));
    assert_eq!(external.options["depth"], 3);
    assert_eq!((external.tolerance_ms, external.startup_ms), (0, 10_000));
    assert_eq!(external.on_failure, OnFailure::Random);
    // meta.json keeps the canonical text; it reads back to the same agent.
    let again: AgentSpec = bot.canonical().parse().expect("round trip");
    assert_eq!(again.external, bot.external);
    // A sweep names the program with other options.
    let deeper = registry
        .resolve("bot(depth=5,style=wild)")
        .expect("override");
    let options = &deeper.external.expect("external").options;
    assert_eq!(
        (options["depth"].clone(), options["style"].clone()),
        (5.into(), "wild".into())
    );

    let error = |text: &str| {
        AgentRegistry::default()
            .add_text(&file, text)
            .expect_err(text)
            .to_string()
    };
    let message = error("[[agent]]\nname = \"b\"\ncommand = [\"x\"]\nalgorithm = \"random\"\n");
    assert!(
        message.contains(
            "ext.toml: line 4: agent 'b': an external agent (command = ...) takes no algorithm"
        ),
        "{message}"
    );
    let message = error("[[agent]]\nname = \"b\"\ncommand = []\n");
    assert!(
        message.contains("command must list the program"),
        "{message}"
    );
    let message = error("[[agent]]\nname = \"b\"\ncommand = [\"x\"]\nstartup_ms = 0\n");
    assert!(
        message.contains("startup_ms = 0: expected a whole number from 1"),
        "{message}"
    );
    let message = error("[[agent]]\nname = \"b\"\ncommand = [\"x\"]\non_failure = \"retry\"\n");
    assert!(
        message.contains("on_failure = 'retry': expected 'forfeit' or 'random'"),
        "{message}"
    );
    let message = error("[[agent]]\nname = \"b\"\nalgorithm = \"random\"\noptions = { a = 1 }\n");
    assert!(
        message.contains("are for external agents; give command"),
        "{message}"
    );
    let message = error("[[agent]]\nname = \"b\"\n");
    assert!(message.contains("give algorithm"), "{message}");
}

/// `rounds` (how ismcts searches simultaneous moves) parses, prints when not the default,
/// and is refused elsewhere or with an unknown value, in one line.
#[test]
fn ismcts_takes_how_it_searches_rounds_of_simultaneous_moves() {
    use crate::search::mcts::Rounds;
    let spec = |t: &str| t.parse::<AgentSpec>().expect(t);
    assert_eq!(spec("ismcts").mcts.rounds, Rounds::Decoupled);
    for (text, rounds) in [
        ("ismcts(rounds=decoupled)", Rounds::Decoupled),
        ("ismcts(rounds=regret)", Rounds::Regret),
        ("ismcts(rounds=turns)", Rounds::Turns),
    ] {
        assert_eq!(spec(text).mcts.rounds, rounds, "{text}");
    }
    assert_eq!(
        spec("ismcts(rounds=decoupled)").canonical(),
        spec("ismcts").canonical()
    );
    assert_eq!(
        spec("ismcts(iterations=50,rounds=turns)").canonical(),
        "ismcts(iterations=50,rounds=turns)"
    );
    let err = |t: &str| t.parse::<AgentSpec>().expect_err(t).message;
    assert_eq!(
        err("mcts(rounds=turns)"),
        "agent 'mcts(rounds=turns)': rounds is a parameter of ismcts (how it searches simultaneous moves), not mcts's"
    );
    assert!(
        err("ismcts(rounds=blind)").contains(
            "rounds 'blind' must be decoupled (each player blind, by UCT), regret (each player blind, by regret matching) or turns"
        ),
        "{}",
        err("ismcts(rounds=blind)")
    );
}

/// The searches for more players parse and print with their keys; a search for two
/// players refuses a bigger table, and best-reply search a game that cannot put any
/// player to move, each in one line saying what to use.
#[test]
fn searches_for_more_players_fit_the_games_they_can_play() {
    use crate::games::connect_four::{ConnectFour, Params};
    use crate::games::star_checkers::{Rules, StarCheckers};
    let spec = |t: &str| t.parse::<AgentSpec>().expect(t);
    let maxn = spec("maxn(heuristic=distance,depth=3,bound=120)");
    assert_eq!(maxn.bound, Some(120.0));
    assert_eq!(
        maxn.canonical(),
        "maxn(heuristic=distance,depth=3,bound=120)"
    );
    let err = |t: &str| t.parse::<AgentSpec>().expect_err(t).message;
    assert_eq!(
        err("paranoid(heuristic=distance,depth=2,bound=5)"),
        "agent 'paranoid(heuristic=distance,depth=2,bound=5)': bound is a parameter of maxn (its shallow pruning), star1 and star2, not paranoid's"
    );
    assert!(err("maxn(heuristic=distance,depth=2,bound=-1)").contains("must be a positive number"));
    assert!(err("star1(heuristic=race,depth=3)").contains("star1 needs bound=B"));
    assert_eq!(
        spec("star1(heuristic=race,depth=3,bound=40)").canonical(),
        "star1(heuristic=race,depth=3,bound=40)"
    );
    let four = StarCheckers::new(Rules {
        players: 4,
        max_plies: 0,
    });
    for fits in [
        "maxn(heuristic=distance,depth=2)",
        "paranoid(heuristic=laggard,depth=2)",
        "brs(heuristic=distance,depth=3)",
        "mcts(iterations=50)",
        "greedy(heuristic=distance)",
        "random",
    ] {
        assert!(spec(fits).factory(&four).is_ok(), "{fits}");
    }
    let refusal = |t: &str, game: &dyn Fn(&AgentSpec) -> Result<(), SpecError>| {
        game(&spec(t)).expect_err(t).message
    };
    let on_four = |s: &AgentSpec| s.factory(&four).map(|_| ());
    assert_eq!(
        refusal("alphabeta(heuristic=distance,depth=2)", &on_four),
        "alphabeta needs a two-player game, and 'chinese-checkers-star(players=4)' seats 4; use maxn, paranoid, brs, mcts, greedy or random"
    );
    assert!(
        refusal("expectimax(heuristic=distance,depth=2)", &on_four)
            .starts_with("expectimax needs a two-player game")
    );
    let connect_four = ConnectFour::new(Params::default());
    let on_c4 = |s: &AgentSpec| s.factory(&connect_four).map(|_| ());
    assert_eq!(
        refusal("brs(heuristic=windows,depth=2)", &on_c4),
        "brs needs a game that can put any player to move (its opponents reply out of turn), and 'connect-four(rows=6,columns=7)' cannot; use paranoid or maxn"
    );
    assert!(
        spec("paranoid(heuristic=windows,depth=2)")
            .factory(&connect_four)
            .is_ok()
    );
    assert!(
        spec("maxn(heuristic=windows,depth=2)")
            .factory(&connect_four)
            .is_ok()
    );
}
