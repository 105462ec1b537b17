use yomi_core::{Shard, ShardMergeError, StopReason};

use super::*;
use crate::Mode;

#[test]
fn the_suite_holds_79_positions_in_its_files() {
    let suite = FfoSuite::load().unwrap();
    assert_eq!(suite.len(), 79);
    let sizes: Vec<usize> = FfoSuite::file_names()
        .map(|f| suite.file(f).unwrap().len())
        .collect();
    assert_eq!(sizes, [19, 20, 10, 10, 20]);
    assert_eq!(
        suite.file("fforum-40-49.obf").unwrap()[0],
        *suite.get(40).unwrap()
    );
    assert!(matches!(suite.file("nope.obf"), Err(FfoError::NoFile(_))));
    assert!(suite.get(0).is_none() && suite.get(80).is_none());
    // #1: 14 empties, black wins by 18 with g8; #79 a 36-empty wipeout.
    let one = suite.get(1).unwrap();
    assert_eq!(one.position.empties().count(), 14);
    assert_eq!(published(one, Mode::Exact), Some(18));
    assert_eq!(published(one, Mode::Wld), Some(1));
    assert_eq!(published(suite.get(79).unwrap(), Mode::Exact), Some(64));
}

#[test]
fn ranges_and_their_shards() {
    let suite = FfoSuite::load().unwrap();
    let numbers = |from, to, shard| -> Vec<usize> {
        suite
            .range(from, to, shard)
            .unwrap()
            .iter()
            .map(|&(n, _)| n)
            .collect()
    };
    assert_eq!(numbers(40, 49, Shard::WHOLE), (40..=49).collect::<Vec<_>>());
    assert_eq!(numbers(1, 7, Shard { index: 1, count: 3 }), [2, 5]);
    for (from, to) in [(0, 3), (5, 4), (1, 80)] {
        assert_eq!(
            suite.range(from, to, Shard::WHOLE),
            Err(FfoError::BadRange {
                from,
                to,
                count: 79
            })
        );
    }
}

#[test]
fn obf_errors_name_the_line() {
    let err = parse_obf("% comment\n\nnot a position\n").unwrap_err();
    assert_eq!(err.line, 3);
}

fn row(number: usize, score: i32, published: i32, stopped: Option<&str>) -> BenchRow {
    BenchRow {
        number: Some(number),
        position: String::new(),
        empties: 20,
        mode: "exact".into(),
        score,
        solved: stopped.is_none(),
        stopped: stopped.map(Into::into),
        lower: score,
        upper: if stopped.is_some() { 64 } else { score },
        published: Some(published),
        best: None,
        pv: Vec::new(),
        nodes: 10,
        seconds: 0.5,
        nodes_per_second: 20.0,
    }
}

#[test]
fn verdicts_in_order_of_the_exit_status() {
    let right = row(1, 18, 18, None);
    assert_eq!(right.verdict().wrong, None);
    assert!(!right.line().ends_with("WRONG"));
    let wrong = row(2, 10, 18, None);
    assert_eq!(
        wrong.verdict().wrong.as_deref(),
        Some("#2: solved +10, published +18")
    );
    assert!(wrong.line().ends_with("  WRONG"));
    let limited = row(3, 0, 18, Some("time"));
    assert_eq!(limited.verdict().stopped, Some(StopReason::Time));
    assert!(limited.line().ends_with("  time limit"));
    let excluded = row(4, 20, 18, Some("nodes"));
    assert!(excluded.verdict().wrong.unwrap().contains("exclude"));
    let interrupted = row(5, 0, 18, Some("interrupted"));
    assert_eq!(
        bench_verdict(std::slice::from_ref(&right)),
        BenchVerdict::Passed
    );
    assert_eq!(
        bench_verdict(&[right.clone(), limited.clone()]),
        BenchVerdict::Limited(vec![3])
    );
    assert_eq!(
        bench_verdict(&[limited.clone(), interrupted]),
        BenchVerdict::Interrupted
    );
    assert_eq!(
        bench_verdict(&[limited, wrong, excluded]),
        BenchVerdict::Wrong(vec![
            "#2: solved +10, published +18".into(),
            "#4: bounds [+20, +64] exclude the published +18".into()
        ])
    );
    let table = BenchTable::new(vec![right.clone(), right]);
    assert_eq!(
        (table.nodes, table.seconds, table.nodes_per_second),
        (20, 1.0, 20.0)
    );
}

#[test]
fn rows_keep_their_json_form() {
    let json = serde_json::to_string(&row(7, 18, 18, None)).unwrap();
    assert_eq!(
        json,
        "{\"number\":7,\"position\":\"\",\"empties\":20,\"mode\":\"exact\",\"score\":18,\
         \"solved\":true,\"lower\":18,\"upper\":18,\"published\":18,\"best\":null,\"pv\":[],\
         \"nodes\":10,\"seconds\":0.5,\"nodes_per_second\":20.0}"
    );
    assert_eq!(
        serde_json::from_str::<BenchRow>(&json).unwrap(),
        row(7, 18, 18, None)
    );
}

fn shards(n: u64) -> Vec<BenchShard> {
    (0..n)
        .map(|index| {
            let shard = Shard { index, count: n };
            BenchShard {
                shard,
                from: 1,
                to: 7,
                settings: "exact".into(),
                title: "FFO #1-#7".into(),
                complete: true,
                rows: (1..=7)
                    .filter(|k| shard.contains(k - 1))
                    .map(|k| row(k as usize, 0, 0, None))
                    .collect(),
            }
        })
        .rev()
        .collect()
}

#[test]
fn bench_shards_merge_in_order_and_refuse_other_runs() {
    let (title, rows) = merge_bench(shards(3)).unwrap();
    assert_eq!(title, "FFO #1-#7");
    let order: Vec<usize> = rows.iter().map(|r| r.number.unwrap()).collect();
    assert_eq!(order, (1..=7).collect::<Vec<_>>());
    let mut other = shards(3);
    other[1].settings = "wld".into();
    let err = merge_bench(other).unwrap_err();
    assert!(
        err.to_string()
            .contains("different run: its settings is wld"),
        "{err}"
    );
    let mut missing = shards(3);
    missing.remove(0);
    assert_eq!(
        merge_bench(missing).unwrap_err().to_string(),
        "shards missing: 2/3"
    );
    let mut twice = shards(3);
    twice.push(twice[0].clone());
    assert!(matches!(
        merge_bench(twice),
        Err(BenchMergeError::Set(ShardMergeError::Duplicate(_)))
    ));
    let mut cut = shards(3);
    cut[2].complete = false;
    cut[2].rows.pop();
    assert_eq!(
        merge_bench(cut).unwrap_err(),
        BenchMergeError::Incomplete(Shard { index: 0, count: 3 })
    );
    assert!(matches!(
        merge_bench(Vec::new()),
        Err(BenchMergeError::Set(ShardMergeError::Empty))
    ));
}
