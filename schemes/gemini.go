package schemes

import _ "github.com/rfc1738/locator/gemini"
