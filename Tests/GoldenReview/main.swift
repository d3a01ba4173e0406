import Foundation
import TestSupport

// `make golden-update` runs this after the golden tests have rewritten the expected images:
// it lays the changed ones out in one contact sheet for a person to look at.
let review = GoldenReview(directory: GoldenReview.directory)
do {
    let count = try review.writeContactSheet()
    if count == 0 {
        print("No golden image changed.")
    } else {
        print("\(count) golden image\(count == 1 ? "" : "s") changed: \(review.sheetPath)")
        print("Look at it before committing (expected | new | difference, one row per image).")
    }
} catch {
    print("golden-review: cannot make the contact sheet: \(error)")
    exit(1)
}
