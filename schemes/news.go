package schemes

import _ "locator/news"
