"""A short list of commonly used passwords of ten characters or more, refused by the
password policy (:func:`golf.identity.passwords.check_password`).

Shorter common passwords need no entry: the length rule refuses them already. The
list is compared after Unicode normalisation and case folding, so ``Password123``
matches ``password123``. It is deliberately short and committed with the code (no
download, no service); it catches the passwords guessed first, not every weak one.
"""

from __future__ import annotations

_LIST = """
1234567890 12345678910 0123456789 0987654321 9876543210 1111111111 0000000000
1212121212 1122334455 1234512345 1234567891 12345678900 123456789a 123456789q
a123456789 q123456789 qwertyuiop qwertyuiop1 qwertyuiop123 asdfghjkl1 asdfghjkl123
zxcvbnm123 1qaz2wsx3edc 1q2w3e4r5t 1q2w3e4r5t6y qwerty1234 qwerty12345 qwerty123456
qazwsxedc123 qazwsxedcrfv 123qweasdzxc asdfasdfasdf abcdefghij abcdefghijk
abcd123456 abc1234567 abcdef123456 abc123abc123 password12 password123 password1234
password12345 password123! password!! passw0rd123 p@ssw0rd123 p@ssword123 mypassword
mypassword1 mypassword123 passwordpassword password01 password2024 password2025
password2026 newpassword newpassword1 changeme123 changemenow letmein123 letmeinnow
iloveyou12 iloveyou123 iloveyou1234 iloveyouforever welcome123 welcome1234
welcometo2024 administrator admin12345 admin123456 adminadmin rootroot123
superman123 batman12345 spiderman1 spiderman123 football12 football123 baseball123
basketball basketball1 soccer12345 liverpool1 chelsea1234 arsenal1234 manchester
manchester1 princess12 princess123 sunshine12 sunshine123 starwars12 starwars123
trustno1234 whatever123 monkey12345 dragon12345 shadow12345 master12345 michael123
jennifer12 jessica123 charlie123 computer12 computer123 internet12 blink182blink
pokemon123 minecraft1 minecraft123 fortnite123 hello12345 helloworld helloworld1
helloworld123 goodmorning thankyou123 michelle12 1234qwerasdf qwer1234asdf
aaaaaaaaaa abcabcabcabc 11223344556 lovelovelove loveyou123 secret1234 secret12345
golfgolfgolf golfer1234 golfer12345 golf123456 golfcards1 cardgame123
"""
#: The refused passwords, in lower case.
COMMON_PASSWORDS: frozenset[str] = frozenset(_LIST.split())
